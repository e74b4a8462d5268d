import { useCallback } from 'react';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Area, KeyOf, MessageKey } from './keys';

/** i18next's options as the pages pass them: interpolation values, count, defaultValue. */
export type TOptions = Record<string, unknown>;
/** A translate function that takes only the keys under one area. */
export type AreaT<A extends Area> = (key: KeyOf<A>, options?: TOptions) => string;

/**
 * The words of one area: `const k = useT('authority.role'); k('rolename')` reads
 * `authority.role.rolename`, and a key the area does not have is a type error. Re-renders on
 * a language change, as useTranslation does.
 */
export function useT<A extends Area>(area: A): AreaT<A> {
  const { t } = useTranslation();
  return useCallback((key: KeyOf<A>, options?: TOptions) => t(`${area}.${key}`, options), [t, area]);
}

/** A translate function over the console's full keys: a key built from a union (`${resource}.coverPick`) is checked for each member. */
export type FullT = (key: MessageKey, options?: TOptions) => string;

/** The words of several areas by full key, for a component whose area is a prop (one of a few resources). */
export function useFullT(): FullT {
  const { t } = useTranslation();
  return useCallback((key: MessageKey, options?: TOptions) => t(key, options), [t]);
}

/** The same outside a component (a form rule's message, built when the rule runs). */
export const tFull: FullT = (key, options) => i18n.t(key, options);
