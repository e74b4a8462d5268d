import type { z } from 'zod';
import type { consentRecord } from '@xinli/contract';

/** A consent record as the console and a person's export show it. */
export type ConsentRecordOut = z.infer<typeof consentRecord>;
