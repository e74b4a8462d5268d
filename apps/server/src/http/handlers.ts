import type { Readable } from 'node:stream';
import type { ActionName, ActionOutput, ActionParsedInput } from '@xinli/contract';
import type { Ctx } from './context.js';

/** What a download action answers instead of JSON. */
export interface FileResult {
  filename: string;
  contentType?: string;
  body: Buffer | Readable;
}

export type HandlerResult<N extends ActionName> = ActionOutput<N> | FileResult;

export type Handler<N extends ActionName> = (input: ActionParsedInput<N>, ctx: Ctx) => Promise<HandlerResult<N>>;

/** A domain's handlers, keyed by action name; `satisfies HandlerMap` types each one from the contract. */
export type HandlerMap = { [N in ActionName]?: Handler<N> };

export function isFileResult(value: unknown): value is FileResult {
  return typeof value === 'object' && value !== null && 'filename' in value && 'body' in value;
}
