import { z } from 'zod';
import { catalogue } from './catalogue.js';
import { ErrorCode, errorMessages, type ErrorCodeName } from './errors.js';
import type { ActionDef } from './catalogue-kit.js';

const accessText = (a: ActionDef['access']) =>
  a === 'public'
    ? 'public'
    : a === 'signedIn'
      ? 'any signed-in caller'
      : a === 'respondent'
        ? 'respondent token only'
        : a.codes.join(' or ');

/** A compact one-line shape of a schema, e.g. `{ username: string, pwd: string }`. */
function shape(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return describe(json);
}

function describe(s: Record<string, any>, depth = 0): string {
  if (depth > 3) return '…';
  if (s.anyOf) return s.anyOf.map((x: Record<string, unknown>) => describe(x, depth + 1)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `${describe(s.items ?? {}, depth + 1)}[]`;
  if (s.type === 'object') {
    const req = new Set<string>(s.required ?? []);
    const props = Object.entries<Record<string, unknown>>(s.properties ?? {}).map(
      ([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${describe(v, depth + 1)}`,
    );
    return `{ ${props.join(', ')} }`;
  }
  if (s.type === 'integer') return 'int';
  return s.type ?? 'any';
}

export function renderApiDoc(): string {
  const lines = [
    '# API catalogue',
    '',
    'Generated from `packages/contract` by `npm run docs:api`; do not edit by hand.',
    '',
    'Every action is `POST /api/{name}/1.0.0/action` with a JSON body (downloads: form-encoded with fields',
    '`payload` = the JSON input and `token`). The session token travels in the `token` header. Answers are',
    '`{ errorCode, errorMsg, data }`; business errors keep HTTP 200.',
    '',
    '## Error codes',
    '',
    '| errorCode | name | message (zh-CN / en-US) |',
    '|---|---|---|',
    ...(Object.keys(ErrorCode) as ErrorCodeName[]).map(
      (k) => `| ${ErrorCode[k]} | ${k} | ${errorMessages[k]['zh-CN']} / ${errorMessages[k]['en-US']} |`,
    ),
    '',
    '## Actions',
    '',
  ];
  for (const [name, def] of Object.entries(catalogue) as [string, ActionDef][]) {
    lines.push(`### ${name}`, '', def.summary, '');
    lines.push(`- access: ${accessText(def.access)}; kind: ${def.kind}; op: ${def.op}`);
    if (def.unique?.length) lines.push(`- unique: ${def.unique.join(', ')} (a clash answers conflict)`);
    if (def.ids && Object.keys(def.ids).length)
      lines.push(
        `- object ids: ${Object.entries(def.ids)
          .map(([f, e]) => `${f} → ${e}`)
          .join(', ')}`,
      );
    lines.push(`- input: \`${shape(def.input)}\``);
    if (def.kind !== 'download') lines.push(`- output: \`${shape(def.output)}\``);
    lines.push('');
  }
  return lines.join('\n');
}
