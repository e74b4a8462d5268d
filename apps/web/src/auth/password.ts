import { md5 } from 'js-md5';

/**
 * SPEC §5: a new password is all digits, or all letters and digits 1-9, or all of the
 * symbols ! @ # $ % ^ & *. (So "abc0" is refused: 0 only appears in all-digit passwords.)
 */
const NEW_PASSWORD = /^(?:[0-9]+|[A-Za-z1-9]+|[!@#$%^&*]+)$/;

export const isValidNewPassword = (value: string) => NEW_PASSWORD.test(value);

/** SPEC §5: passwords travel as the uppercase MD5 hex of what was typed. */
export const hashPassword = (value: string) => md5(value).toUpperCase();
