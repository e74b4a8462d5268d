import { z } from 'zod';

/** A form as lists show it (stages, plans, the library). */
export const formBrief = z.object({
  formcode: z.string(),
  formname: z.string(),
  formtype: z.string(),
  version: z.int(),
  questioncount: z.int(),
  /** True for the platform's built-in scales (read-only, may be copied). */
  builtin: z.boolean(),
  enabled: z.int(),
});
export type FormBrief = z.infer<typeof formBrief>;

/** Actions of the scales domain; each entry lands together with its server handler. */
export const scaleActions = {};
