import { PROVIDER_EXTRA_CODE, allMenuCodes, type ActionDef } from '@xinli/contract';
import { unwrap } from './arbitrary.js';
import { fieldSchema } from './checks.js';
import { ENTITIES_FILE, entities } from './entities.js';
import { looksLikeId, notGrantLike, publicActions, notObjectIds, signedInActions, uniqueFields } from './reviewed.js';

const OPS = ['auth', 'read', 'list', 'write', 'export'];
const CHANGES = ['settings', 'grants', 'password', 'state'];
const CONTRACT_DIR = 'packages/contract/src/actions/';

/** Fields that hand out codes, roles or a sign-in. */
const GRANT_FIELDS = /^(pwd|password|permissions|codes|roleids|rolekey)$/i;

/**
 * An action the grants sweep must know about (issue 27): a write or sign-in action of staff that
 * writes accounts, staff users, roles or permissions (by namespace), changes settings (by name), or
 * takes a password, permission codes or roles (by field, at any depth).
 */
export function looksGrantLike(name: string, def: ActionDef): boolean {
  if (def.op !== 'write' && def.op !== 'auth') return false;
  if (def.access === 'public' || def.access === 'respondent') return false;
  const last = name.split('.').pop() ?? '';
  return (
    /^as\.m\.(user|permissions|system)\./.test(name) ||
    /settings?|permission|password|pwd|grant/i.test(last) ||
    fieldPaths(def.input).some((p) => GRANT_FIELDS.test(p.split('.').pop()!))
  );
}
const KINDS = ['json', 'download', 'upload'];
const REVIEWED_FILE = 'apps/server/src/test/sweep/reviewed.ts';

/** Dotted paths of every object field of an input, arrays and wrappers looked through. */
export function fieldPaths(input: unknown, prefix = '', depth = 0): string[] {
  if (depth > 6) return [];
  let def = unwrap(input);
  while (def.type === 'array') def = unwrap(def.element);
  if (def.type === 'union') return [...new Set((def.options as unknown[]).flatMap((o) => fieldPaths(o, prefix, depth + 1)))];
  if (def.type !== 'object') return [];
  return Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...fieldPaths(v, path, depth + 1)];
  });
}

/**
 * What the sweep needs from every action, checked over a whole catalogue: its access is one the
 * sweep knows, an open action is reviewed, every id field is declared with an entity that has a
 * fixture. Answers one sentence per problem, naming the file to change.
 */
export function metadataProblems(catalogue: Record<string, ActionDef>): string[] {
  const problems: string[] = [];
  const knownCodes = new Set([...allMenuCodes(), PROVIDER_EXTRA_CODE]);
  for (const [name, def] of Object.entries(catalogue)) {
    if (!OPS.includes(def.op)) problems.push(`${name}: op must be one of ${OPS.join(', ')}`);
    if (!KINDS.includes(def.kind)) problems.push(`${name}: kind must be one of ${KINDS.join(', ')}`);
    if (def.access === 'public') {
      if (!publicActions[name]) problems.push(`${name} is public: add it with the reason to publicActions in ${REVIEWED_FILE}`);
    } else if (def.access === 'signedIn') {
      if (!signedInActions[name])
        problems.push(
          `${name} needs no permission code: add it with the reason to signedInActions in ${REVIEWED_FILE}, or give it codes()`,
        );
    } else if (def.access === 'respondent') {
      if (!name.startsWith('as.c.')) problems.push(`${name}: only as.c.* actions may take a respondent token`);
    } else if (typeof def.access === 'object' && Array.isArray(def.access.codes) && def.access.codes.length > 0) {
      for (const code of def.access.codes)
        if (!knownCodes.has(code)) problems.push(`${name}: permission code ${code} is not in the menu table`);
    } else {
      problems.push(`${name}: access must be 'public', 'signedIn', 'respondent' or codes(...) with at least one code`);
    }
    if (name.startsWith('as.c.') && def.access !== 'respondent' && def.access !== 'public')
      problems.push(`${name}: an as.c.* action is the respondent channel: access 'respondent' (or 'public' to open it)`);
    if (unwrap(def.input).type !== 'object') problems.push(`${name}: the input must be an object schema`);
    if (def.changes !== undefined && !CHANGES.includes(def.changes)) problems.push(`${name}: changes must be one of ${CHANGES.join(', ')}`);
    if (def.changes && def.op !== 'write' && def.op !== 'auth') problems.push(`${name}: changes is declared, but only a write or sign-in action changes anything`);
    for (const code of def.needs ?? []) if (!knownCodes.has(code)) problems.push(`${name}: needs names ${code}, which is not in the menu table`);
    if (def.needs?.length && !def.changes) problems.push(`${name}: needs is declared without changes`);
    if (looksGrantLike(name, def) && !def.changes && !notGrantLike[name]) {
      problems.push(
        `${name} looks like it changes settings, grants, passwords or account state: declare changes: 'settings' | 'grants' | 'password' | 'state' in its contract entry (${CONTRACT_DIR}), so the grants sweep covers it, or add it with the reason to notGrantLike in ${REVIEWED_FILE}`,
      );
    }

    const ids = def.ids ?? {};
    for (const [path, entity] of Object.entries(ids)) {
      if (!fieldSchema(def.input, path)) problems.push(`${name}: ids names ${path}, which is not a field of the input`);
      if (!entities[entity])
        problems.push(`${name}: ids uses entity '${entity}', which has no fixture: add one entry for '${entity}' to ${ENTITIES_FILE}`);
    }
    const top = Object.keys(unwrap(def.input).shape ?? {});
    for (const field of def.unique ?? []) {
      if (!top.includes(field)) problems.push(`${name}: unique names ${field}, which is not a field of the input`);
    }
    if (def.unique?.length && def.op !== 'write') problems.push(`${name}: unique is declared, but only a write action creates entities`);
    const creates = def.op === 'write' && /^insert/.test(name.split('.').pop() ?? '');
    for (const field of creates ? top.filter((f) => f in uniqueFields && !def.unique?.includes(f)) : []) {
      problems.push(
        `${name} creates an entity with the unique field ${field}: declare unique: ['${field}', …] in its contract entry, so the parallel-create sweep covers it (${REVIEWED_FILE} uniqueFields)`,
      );
    }
    for (const path of fieldPaths(def.input)) {
      const field = path.split('.').pop()!;
      if (!looksLikeId(field) || path in ids || field in notObjectIds) continue;
      problems.push(
        `${name}: input field ${path} looks like an object id: declare it in the action's ids (field -> entity), or, if it is shared reference data, add '${field}' with the reason to notObjectIds in ${REVIEWED_FILE}`,
      );
    }
  }
  for (const name of Object.keys(notGrantLike)) {
    const def = catalogue[name];
    if (!def || !looksGrantLike(name, def) || def.changes)
      problems.push(`notGrantLike in ${REVIEWED_FILE} names ${name}, which is not an unclassified grant-like action of the catalogue`);
  }
  for (const [list, entries, want] of [
    ['publicActions', publicActions, 'public'],
    ['signedInActions', signedInActions, 'signedIn'],
  ] as const) {
    for (const name of Object.keys(entries)) {
      if (catalogue[name]?.access !== want)
        problems.push(`${list} in ${REVIEWED_FILE} names ${name}, which is not a ${want} action of the catalogue`);
    }
  }
  for (const [entity, fixture] of Object.entries(entities)) {
    if (fixture.kind === 'shared' && fixture.reason.trim().length < 10)
      problems.push(`${ENTITIES_FILE}: shared entity ${entity} needs its reason`);
  }
  return problems;
}
