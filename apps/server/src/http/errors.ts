import { ErrorCode, errorMessages, type ErrorCodeName, type Lang } from '@xinli/contract';

/** A sentence in both languages; the envelope picks the caller's. */
export interface Message {
  zh: string;
  en: string;
}

/**
 * A business error: answered with HTTP 200 (or the protocol status given) and a non-zero
 * errorCode. Handlers throw it; anything else thrown is an internal error and its text never
 * reaches the wire.
 */
export class AppError extends Error {
  constructor(
    readonly codeName: ErrorCodeName,
    readonly msg?: Message,
    readonly httpStatus = 200,
  ) {
    super(msg?.en ?? codeName);
  }

  get code(): number {
    return ErrorCode[this.codeName];
  }

  text(lang: Lang): string {
    if (this.msg) return lang === 'en-US' ? this.msg.en : this.msg.zh;
    return errorMessages[this.codeName][lang];
  }
}

export const fail = (codeName: ErrorCodeName, msg?: Message, httpStatus?: number): never => {
  throw new AppError(codeName, msg, httpStatus);
};

export const notFound = (msg?: Message): never => fail('notFound', msg);
export const denied = (msg?: Message): never => fail('permissionDenied', msg);
export const invalid = (msg?: Message): never => fail('validation', msg);
export const conflict = (msg: Message): never => fail('conflict', msg);
