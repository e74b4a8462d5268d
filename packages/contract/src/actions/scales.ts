/** Actions of the scales domain; each entry lands together with its server handler. */
export const scaleActions = {};
