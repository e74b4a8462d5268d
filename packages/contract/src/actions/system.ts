/** Actions of the system domain; each entry lands together with its server handler. */
export const systemActions = {};
