import { z } from 'zod';
import { action, codes, idString } from '../catalogue-kit.js';

/** An application entry (SPEC §3): one per population app. */
export const appEntry = z.object({ appid: z.string(), appname: z.string(), scenecode: z.string(), iconurl: z.string() });
export type AppEntry = z.infer<typeof appEntry>;

const appid = z.string().regex(/^[0-9]{9}$/);

export const appActions = {
  'as.m.app.getAppList': action({
    access: 'signedIn',
    kind: 'json',
    op: 'list',
    summary: 'The population apps; appid empty or absent for all.',
    input: z.strictObject({ appid: z.union([appid, z.literal('')]).optional() }),
    output: z.array(appEntry),
  }),
  'as.m.app.muser.getMUserAppList': action({
    access: 'signedIn',
    kind: 'json',
    op: 'list',
    summary: 'The apps an account in scope may use; optionally only one appid.',
    input: z.strictObject({ musercode: idString, appid: z.union([appid, z.literal('')]).optional() }),
    output: z.array(appEntry),
    ids: { musercode: 'muser' },
  }),
  'as.m.app.muser.insertMUserApp': action({
    access: codes('00021', '00022'),
    kind: 'json',
    op: 'write',
    summary: 'Replace the apps of an account in scope; the caller can give only apps it has itself.',
    input: z.strictObject({ musercode: idString, appids: z.array(appid).max(20) }),
    output: z.null(),
    ids: { musercode: 'muser' },
  }),
};
