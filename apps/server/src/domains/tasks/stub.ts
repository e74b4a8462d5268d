import { fail } from '../../http/errors.js';

/** Until the owning change lands: a clear "not implemented" (an internal error on the wire). */
export const notImplemented = (): never => fail('internal', { zh: '功能尚未实现', en: 'Not implemented yet' });
