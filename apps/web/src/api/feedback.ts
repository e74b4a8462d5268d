import type { App, Modal } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

/**
 * Where the request client shows messages and dialogs. The console installs antd's App-bound
 * instances (so they follow the theme and language). Until then antd's static functions are
 * used, imported on first use: the request client is part of the sign-in page, which must load
 * without antd (bench/web).
 */
export interface Feedback {
  message: Pick<AppApi['message'], 'error' | 'success' | 'info' | 'warning' | 'destroy'>;
  modal: Pick<typeof Modal, 'confirm' | 'warning'>;
}

/** Calls antd's static message or Modal once antd has loaded; answers nothing meanwhile. */
const later = (part: 'message' | 'modal', kind: string) => (arg: unknown) => {
  void import('./feedback-static').then((antd) => {
    const target = (part === 'message' ? antd.message : antd.Modal) as unknown as Record<string, (a: unknown) => unknown>;
    target[kind](arg);
  });
  return undefined;
};

const fallback = {
  message: {
    error: later('message', 'error'),
    success: later('message', 'success'),
    info: later('message', 'info'),
    warning: later('message', 'warning'),
    destroy: later('message', 'destroy'),
  },
  modal: { confirm: later('modal', 'confirm'), warning: later('modal', 'warning') },
} as unknown as Feedback;

let current: Feedback = fallback;

export function setFeedback(next: Feedback) {
  current = next;
}

export const feedback = (): Feedback => current;
