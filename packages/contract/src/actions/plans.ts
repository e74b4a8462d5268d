/** Actions of the plans domain; each entry lands together with its server handler. */
export const planActions = {};
