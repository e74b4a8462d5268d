/**
 * The error-code table (DESIGN §2). Business errors travel with HTTP 200 and a non-zero
 * errorCode; the console shows errorMsg, which is always a sentence in the caller's language.
 */
export const ErrorCode = {
  ok: 0,
  /** No, expired or revoked token: the console opens its re-login dialog. */
  identityInvalid: 110000,
  validation: 100400,
  permissionDenied: 100403,
  notFound: 100404,
  conflict: 100409,
  locked: 100423,
  rateLimited: 100429,
  badImportFile: 100422,
  wrongCredentials: 100401,
  internal: 100500,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

export type Lang = 'zh-CN' | 'en-US';

/** Default sentence for each code; handlers may give a more precise one. */
export const errorMessages: Record<ErrorCodeName, Record<Lang, string>> = {
  ok: { 'zh-CN': '', 'en-US': '' },
  identityInvalid: { 'zh-CN': '用户身份已失效，请重新登录', 'en-US': 'User identity invalid, please log in again' },
  validation: { 'zh-CN': '输入有误', 'en-US': 'The input is not valid' },
  permissionDenied: { 'zh-CN': '没有执行此操作的权限', 'en-US': 'You do not have permission for this action' },
  notFound: { 'zh-CN': '数据不存在', 'en-US': 'Not found' },
  conflict: { 'zh-CN': '数据冲突', 'en-US': 'The data conflicts with existing data' },
  locked: {
    'zh-CN': '登录失败次数过多，账号已锁定，请15分钟后再试',
    'en-US': 'Too many failed sign-ins: the account is locked, try again in 15 minutes',
  },
  rateLimited: { 'zh-CN': '请求过于频繁，请稍后再试', 'en-US': 'Too many requests, please try again later' },
  badImportFile: { 'zh-CN': '导入文件有误', 'en-US': 'The import file is not valid' },
  wrongCredentials: { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong username or password' },
  internal: { 'zh-CN': '系统繁忙，请稍后再试', 'en-US': 'Internal error, please try again later' },
};

export function pickLang(header: string | undefined | null): Lang {
  return header && /^en/i.test(header.trim()) ? 'en-US' : 'zh-CN';
}
