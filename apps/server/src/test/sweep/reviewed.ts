import type { Db } from '../../db/database.js';
import { SWEEP_APP, firstCategory } from './entities.js';
import { sweepQuotacode } from './examples.js';

/**
 * Lists a reviewer reads: every action the sweep does NOT hold to the usual rule is named here
 * with the reason. The metadata test fails when an action of the catalogue falls outside the
 * rule and is not listed, and when an entry names an action that no longer qualifies.
 */

/** Actions anyone may call without a token. */
export const publicActions: Record<string, string> = {
  'as.m.user.login': 'signing in is what gives a caller its token',
  'as.c.exam.start':
    'a respondent has only the one-time assessment code; it answers a respondent token valid for as.c.* only (rate-limited per address)',
  'as.c.exam.getEntry':
    'the respondent page shows what an institution’s QR entry offers before anyone registers; answers only the entry’s public settings (rate-limited per address)',
  'as.c.exam.enter':
    'a respondent arriving through an institution’s QR code has only its entry token; registers a person there (rate-limited per address)',
  'as.c.registration.getForm':
    'a person asking for a consultation through an institution’s QR entry has only its entry token; answers the entry’s registration form and hotline (rate-limited per address)',
  'as.c.task.login':
    'a student of a group task has only the task’s code (on the board) and their own number and name; opens the personal code the task gave them, answers a respondent token valid for as.c.* only (rate-limited per address)',
  'as.c.task.getTask':
    'the sign-in screen asks, with only the task’s code, whether to show the PIN field; answers the task’s name and that flag, nothing of its students (rate-limited per address: an unknown code counts as a wrong one)',
  'as.c.content.getArticles':
    'respondents arriving through an institution’s QR entry read its published articles with only the entry token; answers published articles of that institution only (rate-limited per address)',
  'as.c.content.getArticle':
    'one published article of the institution of the QR entry, as above; another institution’s or an unpublished article is not found (rate-limited per address)',
  'as.c.shop.getGoods': 'a person buying through an institution’s QR entry has only its entry token; answers the goods on sale of that institution only (rate-limited per address)',
  'as.c.shop.createOrder': 'a person buying through an institution’s QR entry has only its entry token; orders goods on sale of that institution only, stock taken atomically, and only starts a payment: the provider’s signed callback alone pays it (rate-limited per address)',
  'as.c.shop.getOrder': 'the buyer reads their own order by its 192-bit secret token',
  'as.c.content.getMedia': 'respondents arriving through an institution’s QR entry listen and watch with only the entry token; answers the enabled tracks and courses of that institution for the entry’s apps (rate-limited per address)',
  'as.m.user.loginSecondFactor':
    'the second sign-in step: only the short-lived challenge the right password answered, bound to that account, and a code; wrong codes count towards the sign-in lockout (rate-limited per address)',
  'as.m.user.enrolSecondFactor':
    'a person whose administrator requires a second factor not yet set up has only the enrol challenge their right password answered; it starts their own enrolment and nothing else',
  'as.m.user.confirmSecondFactor':
    'completes that enrolment with the enrol challenge and the first code (wrong codes count towards the sign-in lockout; rate-limited per address), then signs in',
  'as.c.registration.submit':
    'a person asking for a consultation through an institution’s QR entry has only its entry token; stores one registration of that institution, checked against its form (rate-limited per address)',
};

/** Actions any signed-in caller may call: no permission code, so the permission sweep skips them. */
export const signedInActions: Record<string, string> = {
  'as.m.user.logout': 'ends the caller’s own session',
  'as.m.system.ping': 'health check: answers the server clock, reads no data',
  'as.m.app.getAppList': 'the population apps are reference data the console needs before any menu',
  'as.m.app.muser.getMUserAppList': 'the app-selection dialog of every account (SPEC §4); the handler scopes the account to the caller',
  'as.m.user.updateMUser': 'changing one’s own password needs no code; changing another account checks 00021/00022 in the handler',
  'as.m.secondFactor.getStatus': 'the caller’s own second factor and the policy of its own account; refused in a login-as session',
  'as.m.secondFactor.begin': 'enrols the caller’s own second factor; refused in a login-as session',
  'as.m.secondFactor.confirm': 'confirms the caller’s own enrolment with a code of its authenticator',
  'as.m.secondFactor.renewRecoveryCodes': 'renews the caller’s own recovery codes, with a current code',
  'as.m.secondFactor.disable': 'turns the caller’s own second factor off, with a current code; refused where a policy requires it',
  'as.m.secondFactor.setPolicy': 'sets what the caller’s own account requires of those below it; only the account itself signed in (not a staff user, not login-as)',
  'as.m.user.getDistrictList':
    'GB/T 2260 regions are public reference data; the region picker of person and archive forms (any menu) reads them',
};

/**
 * Input field names that look like object ids but do not name another institution's object:
 * shared reference data, or a code inside an object the action's declared ids already scope.
 * Any other id-looking field must be declared in the action's `ids`. `value` gives the sweep a
 * real one, so that generated bodies get past that check to the checks under test.
 */
export const notObjectIds: Record<string, { reason: string; value?: (db: Db) => Promise<string> }> = {
  recoverycode: { reason: 'a one-time recovery code of the person whose sign-in challenge it is (a credential, not an object id)' },
  appid: {
    reason: 'population app ids (SPEC §1) are platform reference data; handlers check them against the account’s own apps',
    value: async () => SWEEP_APP,
  },
  appids: { reason: 'population app ids, as above', value: async () => SWEEP_APP },
  categoryid: { reason: 'exam categories are platform reference data synced from code', value: (db) => firstCategory(db, SWEEP_APP) },
  codes: { reason: 'permission codes of the menu table; handlers bound them by the caller’s own codes', value: async () => '00018' },
  quotacode: { reason: 'an indicator code inside the scale named by formcode, which carries the scope', value: sweepQuotacode },
  code: { reason: 'a code the body itself defines (an indicator inside a scale definition), not a stored object' },
  provincecode: { reason: 'region codes are public reference data', value: async () => '330000' },
  citycode: { reason: 'region codes are public reference data', value: async () => '330100' },
  districtcode: { reason: 'region codes are public reference data', value: async () => '330108' },
  parentcode: {
    reason:
      'as.m.user.getDistrictList: the parent region code (public reference data); where parentcode names an account it is declared in ids',
    value: async () => '330000',
  },
  categorycode: { reason: 'category path codes are public reference data' },
  taskcode: {
    reason:
      'as.c.task.login, as.c.task.getTask: the code a task shows its students (public by design, like an assessment code); it is matched with a roster number and name, never scoped to a caller',
  },
};

/**
 * Input fields whose value must be unique for the entity a create action makes, each with the
 * index that enforces it. A create action (its name's last part starts with "insert") that takes
 * one of these must declare it in its contract's `unique`, so the parallel-create sweep fires
 * identical creates at it.
 */
export const uniqueFields: Record<string, string> = {
  rolename: 'role names are unique within an institution, whatever the case (index role_name_idx)',
  rolekey: 'role keys are unique within an institution, whatever the case (index role_key_idx)',
  deptname: 'department names are unique among siblings (index dept_sibling_name_idx)',
  sysusername: 'sign-in names are unique across every account and staff user, whatever the case (index signin_name_lower_idx)',
  username: 'sign-in names, as above',
};

/**
 * Actions that look grant-like to the grants sweep (metadata.ts looksGrantLike: they write
 * accounts, staff users, roles or permissions, or take a password, codes or roles) but change no
 * setting, grant, password or account state, each with the reason. Every other such action
 * declares `changes` in its contract entry.
 */
export const notGrantLike: Record<string, string> = {
  'as.m.user.logout': 'ends the caller’s own session and nothing else',
  'as.m.user.updateMUserCategory': 'moves an account in the category tree: a label for lists and statistics, no code, sign-in or state',
  'as.m.system.dept.insertDept': 'departments group staff users for lists; they carry no code, password or sign-in',
  'as.m.system.dept.updateDept': 'departments group staff users for lists; they carry no code, password or sign-in',
  'as.m.system.dept.deleteDeptById': 'departments group staff users for lists; they carry no code, password or sign-in',
  'as.m.user.insertCUserAssessCode': 'an assessment code opens one assessment for one person; it is not a permission code',
  'as.m.user.insertCUserAssessCodes': 'assessment codes open one assessment each for persons; they are not permission codes',
  'as.m.user.undoLinkEntries': 'removes the persons and cases a burst of anonymous entries created; no code, sign-in or account state',
};

/** A field name that probably carries an object id. */
export const looksLikeId = (field: string) => /^(musercode|userid)$|(id|ids|code|codes)$/i.test(field);

/**
 * Extra fields a write must never apply: ownership, permissions and status. The mass-assignment
 * sweep adds each one the action's schema does not declare.
 */
export const massAssignmentFields = (foreignMusercode: string, foreignProvider: string): Record<string, unknown> => ({
  musercode: foreignMusercode,
  parentcode: foreignProvider,
  permissions: ['00021', '00022', '00023', '000311'],
  codes: ['00021', '00022'],
  roles: ['admin'],
  rolekey: 'admin',
  issuper: true,
  musertype: '005',
  enabled: 0,
  status: 1,
  userid: 'U0002',
  actor: foreignMusercode,
  createdat: '2000-01-01T00:00:00Z',
  pwdhash: 'x',
});
