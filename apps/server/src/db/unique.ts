/** A sentence in both languages (the shape of http/errors.ts Message, which the database layer does not import). */
type Sentence = { zh: string; en: string };

/**
 * Uniqueness rules live in the database as unique indexes (migration 0006 and earlier), so that
 * parallel creates cannot slip past a check made in code. When one fires, the action answers the
 * same clear conflict a sequential clash gets: this table names, per index, what clashed. It is
 * used in one place, the action route (which answers the conflict), so no handler has to wrap its
 * inserts; the handler's transaction has rolled back by then, so the refused request changed nothing.
 */
const clashes: Record<string, Sentence> = {
  role_name_idx: { zh: '该角色名称已存在（不区分大小写）', en: 'A role with this name already exists in the institution (names ignore case)' },
  role_key_idx: { zh: '该权限字符已被使用（不区分大小写）', en: 'This role key is already used in the institution (keys ignore case)' },
  dept_sibling_name_idx: { zh: '同级下已有同名部门', en: 'A department with this name already exists at this level' },
  signin_name_lower_idx: { zh: '该登录账号已被使用（不区分大小写）', en: 'This sign-in name is already taken (names ignore case)' },
  muser_username_unique: { zh: '该登录账号已被使用', en: 'This sign-in name is already taken' },
  sysuser_sysusername_unique: { zh: '该登录账号已被使用', en: 'This sign-in name is already taken' },
  report_template_name_uq: { zh: '本机构已有同名的报告模板', en: 'A report template with this name already exists in the institution' },
};

const UNIQUE_VIOLATION = '23505';

/** The unique index an error (or any error it wraps: Drizzle wraps the driver's) violated, else null. */
export function violatedUnique(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === UNIQUE_VIOLATION) return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/**
 * A unique violation and the sentence naming what clashed (undefined for an index without one);
 * null for any other error.
 */
export function uniqueClash(err: unknown): { constraint: string; msg: Sentence | undefined } | null {
  const constraint = violatedUnique(err);
  if (constraint === null) return null;
  return { constraint, msg: clashes[constraint] };
}
