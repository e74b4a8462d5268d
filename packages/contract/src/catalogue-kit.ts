import { z } from 'zod';

/**
 * Who may call an action: anyone, any signed-in caller, or a caller holding one of the
 * permission codes (menu or component codes of SPEC §6). `respondent`: only a respondent token
 * (the `as.c.*` channel of people answering an assessment); no staff token is accepted there, and
 * a respondent token is accepted nowhere else.
 */
export type Access = 'public' | 'signedIn' | 'respondent' | { codes: string[] };

/** Download actions answer a file, uploads take multipart; everything else is JSON. */
export type ActionKind = 'json' | 'download' | 'upload';

/** What an action does to data; the security sweep picks its checks by it. */
export type ActionOp = 'auth' | 'read' | 'list' | 'write' | 'export';

/**
 * What a write changes, when it changes who may do what (issue 27): `settings` that decide what
 * happens to others (warning triggers, entry settings), `grants` (codes, roles, role holders, new
 * accounts and sessions), `password` (another account's password) or account `state` (enabled,
 * deleted). The grants sweep calls each such action as a staff user lacking its codes, and as a
 * narrow caller aiming at accounts that hold more than it does.
 */
export type ActionChanges = 'settings' | 'grants' | 'password' | 'state';

/** Entities whose ids travel in inputs; tenant isolation is checked per entity. */
export type EntityName =
  | 'muser'
  | 'sysuser'
  | 'role'
  | 'dept'
  | 'menu'
  | 'form'
  | 'norm'
  | 'quota'
  | 'quotaoption'
  | 'app'
  | 'stage'
  | 'plan'
  | 'planauth'
  | 'person'
  | 'report'
  | 'assesscode'
  | 'task'
  | 'team'
  | 'warning'
  | 'registration'
  | 'case'
  | 'writtenreport'
  | 'reportexport'
  | 'reporttemplate'
  | 'file'
  | 'article'
  | 'goods'
  | 'order'
  | 'track'
  | 'course'
  | 'audit';

export interface ActionDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  access: Access;
  kind: ActionKind;
  op: ActionOp;
  /** One line for the generated API catalogue. */
  summary: string;
  input: I;
  output: O;
  /** Input fields that carry object ids, and the entity each names. */
  ids?: Record<string, EntityName>;
  /**
   * For a create action: the input fields whose values the new entity must not share with an
   * existing one (a unique index backs each). The security sweep fires parallel identical
   * creates at every action that declares it and expects one row and conflicts for the rest.
   */
  unique?: string[];
  /**
   * A request body limit above the server's default (BODY_LIMIT_BYTES), for uploads that must
   * carry big files in the body (person rosters of 50,000 rows). Only where a real file needs it.
   */
  maxBodyBytes?: number;
  /** See ActionChanges; the metadata test requires it of every action that looks grant-like. */
  changes?: ActionChanges;
  /**
   * Codes the handler requires besides one of `access` for what `changes` names (updateMUser: the
   * password code to set another account's password). The grants sweep withholds each.
   */
  needs?: string[];
}

export const action = <I extends z.ZodType, O extends z.ZodType>(def: ActionDef<I, O>): ActionDef<I, O> => def;

export const codes = (...list: string[]): Access => ({ codes: list });

/** Page and page size (SPEC §3): the size is capped so no caller can ask for the whole table. */
export const MAX_PAGE_SIZE = 200;
export const pageFields = {
  page: z.int().min(1).max(1_000_000).default(1),
  pageSize: z.int().min(1).max(MAX_PAGE_SIZE).default(10),
};

export const pageOf = <T extends z.ZodType>(row: T) => z.object({ total: z.int(), rows: z.array(row) });

/** Short free text: trimmed, bounded. */
export const text = (max = 64) => z.string().trim().max(max);
export const requiredText = (max = 64) => z.string().trim().min(1).max(max);
/** Codes and ids are short tokens of letters, digits, - and _. */
export const idString = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
/**
 * A file's bytes as base64 in a JSON body (an import's content, an upload's data), up to `max`
 * characters. The server checks the base64 where it decodes it (kit/upload/base64.ts): a regular
 * expression here would read megabytes on the server's event loop that its JSON worker has already
 * checked and decoded.
 */
export const base64File = (max: number) => z.string().min(1).max(max);
export const permissionCode = z.string().regex(/^[0-9]{5,10}$/);
/** The password on the wire: uppercase MD5 hex of what the user typed (SPEC §5). */
export const md5Password = z.string().regex(/^[0-9A-F]{32}$/);
export const phone = z
  .string()
  .trim()
  .regex(/^[0-9+\- ]{0,20}$/);
export const flag = z.union([z.literal(0), z.literal(1)]);
/** An account's own web site: an https address, or '' for none (then no website button shows). */
export const websiteUrl = z.union([
  z
    .string()
    .trim()
    .max(200)
    .regex(/^https:\/\/[^\s"'<>]+$/),
  z.literal(''),
]);

/**
 * Component code: set the password of ANOTHER account or staff user (updateMUser of another
 * account, resetPwd). Only for a target whose codes the caller holds all of (issue 27 §2). Here,
 * not in actions/auth.ts, so that the system pages that use it load no auth schemas.
 */
export const SET_PASSWORD_CODE = '0003131';
