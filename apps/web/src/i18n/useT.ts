import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Area, KeyOf } from './keys';

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
