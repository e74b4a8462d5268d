/**
 * Personal identifiers as lists and exports show them to a caller without the permission to see
 * them in full (DESIGN §6). One copy for every domain: staff users, accounts and persons.
 */

/** 138****5678: the first three and last four digits; '' for none. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const digits = phone.replace(/\D/g, '');
  return digits.length >= 7 ? `${digits.slice(0, 3)}****${digits.slice(-4)}` : '****';
}

/** 1101**********123X: the first four and last four characters; '' for none. */
export function maskIdCard(idcard: string | null | undefined): string {
  if (!idcard) return '';
  return idcard.length > 8 ? `${idcard.slice(0, 4)}${'*'.repeat(idcard.length - 8)}${idcard.slice(-4)}` : '****';
}

/** 张*三, 李*, J*** S***: the first character (and a Chinese name's last) kept; '' for none. */
export function maskName(name: string | null | undefined): string {
  const s = (name ?? '').trim();
  if (!s) return '';
  const chars = [...s];
  if (/^[\p{Script=Han}·]+$/u.test(s)) return chars.length <= 2 ? `${chars[0]}*` : `${chars[0]}${'*'.repeat(chars.length - 2)}${chars.at(-1)}`;
  return s
    .split(/\s+/)
    .map((w) => `${[...w][0]}${'*'.repeat(Math.max(1, [...w].length - 1))}`)
    .join(' ');
}

/** l***@school.example.cn: the first character of the name before @, and the domain; '' for none. */
export function maskEmail(email: string | null | undefined): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  return at > 0 ? `${[...email][0]}***${email.slice(at)}` : '****';
}
