/**
 * A person's whole record (PIPL Art. 45, issue 30 §5): the sections of the export, each read
 * through its domain's front door, and the export as JSON or as a PDF printed by the reports
 * domain's printer (the report-PDF path). Adding a section (consents, §4) is one line of
 * RECORD_SECTIONS.
 */
import {
  CaseEventName,
  CaseStateName,
  ConsentKindName,
  ConsentViaName,
  ContactWayName,
  enumLabel,
  Gender,
  GuardianRelationName,
  WarningKindName,
  WarningLevelName,
  type EnumItem,
  type Lang,
} from '@xinli/contract';
import { openArchive } from './identity.js';
import type { Ctx } from '../../http/context.js';
import { fail } from '../../http/errors.js';
import { iso, todayIn } from '../../kit/index.js';
import { accountNames } from '../accounts/index.js';
import { canMakePdf, NO_CHROMIUM, openPrinter } from '../../kit/pdf.js';
import { chinaTime, CSS, esc } from '../../kit/print.js';
import { archiveFormOf } from '../scales/index.js';
import { archiveColumns, archiveDisplay } from './archive.js';
import { personRow } from './list.js';
import { personRightsHooks, type RecordSection } from './hooks.js';
import type { PersonRecord } from './persons.js';

/** The profile in full (the record is the person's own: nothing masked). */
async function profileOf(ctx: Ctx, p: PersonRecord) {
  const names = await accountNames(ctx.db, [p.musercode]);
  return personRow(p, names.get(p.musercode) ?? '', ctx.lang, true);
}

/** Each archive question with the answer given, in words. */
async function archiveOf(ctx: Ctx, p: PersonRecord) {
  const form = await archiveFormOf(ctx.db, p.musercode, p.appid);
  if (!form) return [];
  const display = archiveDisplay(form.definition, openArchive(p.archive), ctx.lang);
  const t = (x: { zh: string; en: string }) => (ctx.lang === 'en-US' && x.en ? x.en : x.zh);
  return archiveColumns(form.definition).map((c) => ({ no: c.no, question: t(c.title), answer: display[c.key] ?? '' }));
}

/** The record's sections: the two persons keeps, then those other domains hand in (reports, cases, consents). */
export const recordSections = (): RecordSection[] => [
  { key: 'profile', title: { zh: '基本信息', en: 'Profile' }, read: profileOf },
  { key: 'archive', title: { zh: '档案', en: 'Archive answers' }, read: archiveOf },
  ...personRightsHooks().sections,
];

export interface PersonRecordExport {
  format: 'xinli-person-record';
  version: 1;
  exportedat: string;
  cusercode: string;
  sections: Record<string, unknown>;
}

export async function personRecord(ctx: Ctx, person: PersonRecord): Promise<PersonRecordExport> {
  const sections: Record<string, unknown> = {};
  for (const s of recordSections()) sections[s.key] = await s.read(ctx, person);
  return { format: 'xinli-person-record', version: 1, exportedat: iso(ctx.now()), cusercode: person.cusercode, sections };
}

// ---------- the PDF: every section as tables, whatever its shape ----------

/** Field names the reader sees in words; any other is shown as it is in the JSON. */
const LABELS: Record<string, [string, string]> = {
  cusercode: ['编号', 'Code'],
  realname: ['姓名', 'Name'],
  gender: ['性别', 'Gender'],
  birthdate: ['出生日期', 'Birth date'],
  phonenumber: ['手机号', 'Phone'],
  idcard: ['身份证号', 'ID number'],
  insname: ['机构', 'Institution'],
  appname: ['应用', 'App'],
  source: ['来源', 'Source'],
  createdat: ['创建时间', 'Created'],
  updatedat: ['修改时间', 'Changed'],
  anonymisedat: ['匿名时间', 'Anonymised'],
  no: ['题号', 'No.'],
  question: ['题目', 'Question'],
  answer: ['回答', 'Answer'],
  score: ['得分', 'Score'],
  formname: ['量表', 'Scale'],
  planname: ['测评计划', 'Plan'],
  stagename: ['阶段', 'Stage'],
  mentalstate: ['心理状态', 'Mental state'],
  level: ['等级', 'Level'],
  warning: ['预警', 'Warning'],
  warnings: ['预警', 'Warnings'],
  indicators: ['指标', 'Indicators'],
  answers: ['作答', 'Answers'],
  comments: ['评语', 'Comments'],
  name: ['名称', 'Name'],
  state: ['状态', 'State'],
  note: ['备注', 'Note'],
  events: ['处理记录', 'Events'],
  followups: ['随访', 'Follow-ups'],
  case: ['个案', 'Case'],
  reason: ['原因', 'Reason'],
  content: ['内容', 'Content'],
  at: ['时间', 'At'],
  byname: ['操作人', 'By'],
  followdate: ['随访日期', 'Follow-up date'],
  way: ['方式', 'Way'],
  risk: ['风险', 'Risk'],
  outcome: ['结果', 'Outcome'],
  reportid: ['报告编号', 'Report no.'],
  caseid: ['个案编号', 'Case no.'],
  label: ['等级说明', 'Band'],
  advice: ['建议', 'Advice'],
  interpretation: ['解释', 'Interpretation'],
  voidreason: ['无效原因', 'Why void'],
  comment: ['评语', 'Comment'],
  from: ['原状态', 'From'],
  to: ['新状态', 'To'],
  what: ['操作', 'What'],
  nextdate: ['下次随访', 'Next follow-up'],
  kinds: ['类型', 'Kinds'],
  openedat: ['开案时间', 'Opened'],
  closedat: ['结案时间', 'Closed'],
  assigneename: ['负责人', 'Assignee'],
  raisesWarning: ['触发预警', 'Raises a warning'],
  overdue: ['逾期', 'Overdue'],
  kind: ['类型', 'Kind'],
  via: ['方式', 'How'],
  noticeversion: ['告知版本', 'Notice version'],
  guardianname: ['监护人', 'Guardian'],
  relation: ['关系', 'Relation'],
  teamname: ['班级', 'Class'],
  recordedbyname: ['登记人', 'Recorded by'],
};
/** Codes shown in words: the contract's word lists, the ones the console and the exports use. */
const WORDS: Record<string, EnumItem<string>[]> = {
  gender: Gender,
  state: CaseStateName,
  from: CaseStateName,
  to: CaseStateName,
  way: ContactWayName,
  kinds: WarningKindName,
  what: CaseEventName,
  via: ConsentViaName,
  relation: GuardianRelationName,
};
/**
 * Words a section names differently: a consent's kind (notice, guardian, withdrawal) is what the
 * record is about, where elsewhere `kind` is an internal code and hidden.
 */
const SECTION_WORDS: Record<string, Record<string, EnumItem<string>[]>> = { consents: { kind: ConsentKindName } };
/** A person's source (console, import, QR code) has no word list elsewhere: only the record prints it. */
const SOURCES: EnumItem<string>[] = [
  { value: 'console', zh: '后台登记', en: 'Console' },
  { value: 'import', zh: 'Excel 导入', en: 'Excel import' },
  { value: 'qrcode', zh: '扫码注册', en: 'QR code' },
];
/** The word for a code under `key`, or undefined; a case's level is a word, a report's a number. */
const wordOf = (key: string, v: unknown, lang: Lang, words: Record<string, EnumItem<string>[]>): string | undefined => {
  const list = key === 'source' ? SOURCES : key === 'level' && typeof v === 'string' ? WarningLevelName : words[key];
  return list?.some((i) => i.value === v) ? enumLabel(list, v as string, lang) : undefined;
};
/** Fields of no use to a reader of the printed record (internal codes, chart series). */
const HIDDEN = new Set([
  'musercode',
  'appid',
  'plancode',
  'stagecode',
  'formcode',
  'trend',
  'colour',
  'options',
  'type',
  'hidden',
  'raw',
  'band',
  'code',
  'kind',
  'version',
  'voided',
  'by',
  'userid',
  'warningid',
  'followid',
  'createdby',
  'assessid',
  'assesscode',
  // A consent's id and the notice's hash are evidence kept in the JSON; the signature's address expires.
  'consentid',
  'noticehash',
  'signatureurl',
  // Who recorded a consent is printed by name (recordedbyname); the id stays in the JSON.
  'recordedby',
]);

/** How one section prints: its words for codes, and the fields it hides. */
interface Printing {
  lang: Lang;
  words: Record<string, EnumItem<string>[]>;
  hidden: Set<string>;
}
const printingOf = (section: string, lang: Lang): Printing => {
  const own = SECTION_WORDS[section] ?? {};
  return { lang, words: { ...WORDS, ...own }, hidden: new Set([...HIDDEN].filter((k) => !(k in own))) };
};

const label = (key: string, lang: Lang) => LABELS[key]?.[lang === 'en-US' ? 1 : 0] ?? key;
const isPlain = (v: unknown) => v === null || typeof v !== 'object';
const isLocal = (v: object): v is { zh: string; en: string } => 'zh' in v && 'en' in v && Object.keys(v).length === 2;
const plain = (v: unknown, p: Printing, key = ''): string => {
  const { lang } = p;
  if (v === null || v === undefined || v === '') return '—';
  const word = wordOf(key, v, lang, p.words);
  if (word) return word;
  if (typeof v === 'object' && !Array.isArray(v) && isLocal(v)) return (lang === 'en-US' && v.en) || v.zh;
  if (typeof v === 'boolean') return lang === 'en-US' ? (v ? 'yes' : 'no') : v ? '是' : '否';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) return chinaTime(v);
  if (typeof v === 'object')
    return (
      Object.values(v as object)
        .filter(isPlain)
        .join(' / ') || '—'
    );
  return String(v);
};
const shown = (o: object, p: Printing) => Object.entries(o).filter(([k]) => !p.hidden.has(k));

function renderValue(v: unknown, p: Printing, depth: number): string {
  const { lang } = p;
  if (isPlain(v)) return esc(plain(v, p));
  if (Array.isArray(v)) {
    if (!v.length) return `<p class="muted">${lang === 'en-US' ? 'None' : '无'}</p>`;
    if (v.every(isPlain)) return esc(v.map((x) => plain(x, p)).join('、'));
    const rows = v as object[];
    // Rows of plain fields are one table; rows with nested parts (a report, a case) one block each.
    if (
      rows.every((r) =>
        shown(r, p).every(([, x]) => isPlain(x) || (typeof x === 'object' && Object.values(x as object).every(isPlain) && !Array.isArray(x))),
      )
    ) {
      const keys = [...new Set(rows.flatMap((r) => shown(r, p).map(([k]) => k)))];
      const head = keys.map((k) => `<th>${esc(label(k, lang))}</th>`).join('');
      const body = rows
        .map((r) => `<tr>${keys.map((k) => `<td>${esc(plain((r as Record<string, unknown>)[k], p, k))}</td>`).join('')}</tr>`)
        .join('');
      return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
    }
    return rows.map((r, i) => `<div class="section"><h3>${i + 1}.</h3>${renderValue(r, p, depth + 1)}</div>`).join('');
  }
  const entries = shown(v as object, p);
  const flat = entries.filter(([, x]) => isPlain(x) || (!Array.isArray(x) && Object.values(x as object).every(isPlain)));
  const nested = entries.filter((e) => !flat.includes(e));
  const table = flat.length
    ? `<table class="info"><tbody>${flat.map(([k, x]) => `<tr><th>${esc(label(k, lang))}</th><td>${esc(plain(x, p, k))}</td></tr>`).join('')}</tbody></table>`
    : '';
  const tag = depth < 2 ? 'h3' : 'p';
  return table + nested.map(([k, x]) => `<${tag}><b>${esc(label(k, lang))}</b></${tag}>${renderValue(x, p, depth + 1)}`).join('');
}

export function renderRecordHtml(record: PersonRecordExport, institution: string, lang: Lang): string {
  const title = lang === 'en-US' ? 'Personal record' : '个人信息记录';
  const sections = recordSections()
    .map(
      (s) =>
        `<div class="section"><h2>${esc(lang === 'en-US' ? s.title.en : s.title.zh)}</h2>${renderValue(record.sections[s.key], printingOf(s.key, lang), 0)}</div>`,
    )
    .join('');
  const sub =
    lang === 'en-US'
      ? `Exported ${chinaTime(record.exportedat)} · ${record.cusercode}`
      : `导出时间 ${chinaTime(record.exportedat)} · ${record.cusercode}`;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${CSS}</style></head><body><div class="doc">
<div class="masthead"><div class="titles"><div class="ins">${esc(institution)}</div><h1>${esc(title)}</h1><div class="sub">${esc(sub)}</div></div></div>
${sections}</div></body></html>`;
}

/**
 * A JSON media type of our own (RFC 6839 +json suffix): the console's download treats a plain
 * application/json answer as an error envelope.
 */
const RECORD_JSON_TYPE = 'application/vnd.xinli.person-record+json; charset=utf-8';

const FOOTER = `<div style="width:100%;font-size:8px;color:#6b7280;padding:0 14mm;text-align:right;font-family:'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`;

/** The record as a file: JSON, or a PDF from the system Chromium (refused, as report PDFs are, without one). */
export async function recordFile(ctx: Ctx, person: PersonRecord, format: 'json' | 'pdf') {
  if (format === 'pdf' && !canMakePdf(ctx.config.chromiumPath)) fail('conflict', NO_CHROMIUM);
  const record = await personRecord(ctx, person);
  const base = `${ctx.lang === 'en-US' ? 'record' : '个人信息记录'}-${person.cusercode}-${todayIn(ctx.now())}`;
  if (format === 'json')
    return { filename: `${base}.json`, contentType: RECORD_JSON_TYPE, body: Buffer.from(JSON.stringify(record, null, 2)) };
  const profile = record.sections.profile as { insname: string };
  const printer = await openPrinter(ctx.config.chromiumPath);
  try {
    const body = await printer.pdf({ html: renderRecordHtml(record, profile.insname, ctx.lang), footerTemplate: FOOTER });
    return { filename: `${base}.pdf`, contentType: 'application/pdf', body };
  } finally {
    await printer.close();
  }
}
