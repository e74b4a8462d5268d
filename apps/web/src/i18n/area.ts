type Tree<T> = { [K in keyof T]: T[K] extends string ? string : Tree<T[K]> };

/**
 * Declares the messages of one area in both languages. The English side must have exactly the
 * Chinese keys (nested objects allowed): a missing translation is a type error.
 */
export function defineArea<T extends Record<string, unknown>>(messages: { zh: T; en: Tree<T> }) {
  return messages;
}
