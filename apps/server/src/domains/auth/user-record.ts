import { INSTITUTION_TIME_ZONE, type UserRecord } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { AccountRecord } from '../accounts/index.js';
import type { StaffUserRecord } from '../system/index.js';
import { resolveGrants, type Actor } from './permissions.js';

/** Types whose accounts never see the app-selection dialog (SPEC §6). */
const APP_DIALOG_EXEMPT_TYPES = ['001', '002', '003'];

/** The logged-in user record of SPEC §3 for an account (and staff user) with a fresh token. */
export async function buildUserRecord(
  db: DbOrTx,
  token: string,
  account: AccountRecord,
  user: StaffUserRecord | null,
  actingas: string | null,
  actor: Actor | null = null,
): Promise<UserRecord> {
  const grants = await resolveGrants(db, account, user?.userid ?? null, actor);
  return {
    token,
    userid: user?.userid ?? null,
    musercode: account.musercode,
    musertype: account.musertype,
    permissions: grants.codes.map((component) => ({ component })),
    roles: grants.roles,
    provincecode: account.provincecode,
    citycode: account.citycode,
    districtcode: account.districtcode,
    regionname: account.regionname,
    categorycode: account.categorycode,
    categorylevel: account.categorylevel,
    categorycode0: account.categorycode0,
    categorycode1: account.categorycode1,
    categorycode2: account.categorycode2,
    categorycode3: account.categorycode3,
    categorycode4: account.categorycode4,
    categorycode5: account.categorycode5,
    username: account.username,
    sysusername: user?.sysusername ?? '',
    insname: account.insname,
    realname: user?.realname || account.realname,
    phonenumber: user?.phonenumber || account.phonenumber,
    qrcodeurl: account.qrcodeurl,
    loginasmarker: account.loginasmarker,
    appdialogexempt: account.appdialogexempt || APP_DIALOG_EXEMPT_TYPES.includes(account.musertype),
    // The website button opens the account's own site, and shows only when one is set.
    navbarlinks: [...(account.website ? [{ key: 'website', url: account.website }] : []), ...account.navbarlinks.filter((l) => l.key !== 'website')],
    actingas,
    timezone: INSTITUTION_TIME_ZONE,
  };
}
