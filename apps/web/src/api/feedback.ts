import { message as staticMessage, Modal as staticModal, type App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

/**
 * Where the request client shows messages and dialogs. The shell installs antd's App-bound
 * instances (so they follow the theme and language); until then, and in tests, the static
 * functions or a stub are used.
 */
export interface Feedback {
  message: Pick<AppApi['message'], 'error' | 'success' | 'info' | 'warning'>;
  modal: Pick<typeof staticModal, 'confirm' | 'warning'>;
}

let current: Feedback = { message: staticMessage, modal: staticModal };

export function setFeedback(next: Feedback) {
  current = next;
}

export const feedback = (): Feedback => current;
