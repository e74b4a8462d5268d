import { INSTITUTION_TIME_ZONE, timeInZone, type Lang, type ScoreResult } from '@xinli/contract';

/**
 * What a writer is given about a person: a de-identified profile built from their current results.
 * It never holds the name, phone, ID number, birth date, free-text answers, or any code or id that
 * names the person, their institution or their reports. Everything in it may leave the server.
 */
export interface WriterInput {
  lang: Lang;
  profile: {
    /** The population (孕产妇, 青少年学生 …) in the report's language. */
    population: string;
    /** The population app, for population-specific steps (not a person's code). */
    populationapp: string;
    gender: 'female' | 'male';
    /** e.g. "15-17"; null when the birth date is unknown. */
    ageband: string | null;
  };
  /** The latest result of each form, most severe first. */
  forms: ProfileForm[];
}

export interface ProfileIndicator {
  name: string;
  kind: 'total' | 'factor';
  score: number;
  /** 0 normal … 4 severe; null when the indicator has no bands. */
  level: number | null;
  label: string | null;
  interpretation: string | null;
  advice: string | null;
}

export interface ProfileWarning {
  /** critical: a critical item was answered; band: a result in a warning band. */
  source: 'critical' | 'band' | 'screening';
  /** The question number of a critical item. */
  item: number | null;
  reason: string;
}

export interface ProfileChange {
  name: string;
  from: number;
  to: number;
  fromlevel: number | null;
  tolevel: number | null;
  /** By band level (higher is worse); `same` when the level did not change or has no bands. */
  direction: 'worse' | 'better' | 'same';
}

export interface ProfileForm {
  /** The form's name in the report's language. */
  form: string;
  /** The instrument's code in the library (PHQ9, GAD7 …), for instrument-specific rules. */
  instrument: string;
  /** YYYY-MM-DD (China calendar). */
  date: string;
  /** Overall mental state 0–4 (SPEC §3). */
  mentalstate: number;
  indicators: ProfileIndicator[];
  warnings: ProfileWarning[];
  /** Against the previous result of the same form, if there is one. */
  trend: { previousdate: string; changes: ProfileChange[] } | null;
}

/** One stored report, its score with the texts of its form version. */
export interface SourceReport {
  reportid: string;
  formcode: string;
  formname: string;
  createdat: Date;
  mentalstate: number;
  score: ScoreResult;
}

export interface PersonFacts {
  appid: string;
  population: string;
  gender: string;
  birthdate: string | null;
}

const AGE_BANDS: [number, number][] = [
  [0, 11],
  [12, 14],
  [15, 17],
  [18, 24],
  [25, 34],
  [35, 44],
  [45, 54],
  [55, 64],
  [65, 74],
];

/** Whole years between a birth date and a calendar day (both YYYY-MM-DD). */
export function ageOn(birthdate: string, day: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

export function ageBand(birthdate: string | null, today: string): string | null {
  if (!birthdate) return null;
  const age = ageOn(birthdate, today);
  if (age < 0) return null;
  const band = AGE_BANDS.find(([lo, hi]) => age >= lo && age <= hi);
  return band ? `${band[0]}-${band[1]}` : '75+';
}

const pick = (lang: Lang, t: { zh: string; en: string } | null | undefined): string | null =>
  t ? (lang === 'en-US' && t.en ? t.en : t.zh) : null;
const day = (d: Date) => timeInZone(d, INSTITUTION_TIME_ZONE).slice(0, 10);

/**
 * The profile of a person from their reports (any order; voided ones already left out): per form
 * the newest report, compared with the one before it. Pure: the tests build it from fixed reports.
 */
export function buildProfile(
  person: PersonFacts,
  reports: SourceReport[],
  lang: Lang,
  today: string,
): { input: WriterInput; used: SourceReport[] } {
  const byForm = new Map<string, SourceReport[]>();
  const sorted = [...reports].sort((a, b) => a.createdat.getTime() - b.createdat.getTime() || a.reportid.localeCompare(b.reportid));
  for (const r of sorted) byForm.set(r.formcode, [...(byForm.get(r.formcode) ?? []), r]);
  const used: SourceReport[] = [];
  const forms: ProfileForm[] = [];
  for (const list of byForm.values()) {
    const latest = list[list.length - 1]!;
    const previous = list.length > 1 ? list[list.length - 2]! : null;
    used.push(latest);
    forms.push(formOf(latest, previous, lang));
  }
  forms.sort((a, b) => severity(b) - severity(a) || a.form.localeCompare(b.form));
  return {
    input: {
      lang,
      profile: {
        population: person.population,
        populationapp: person.appid,
        gender: person.gender === '02' ? 'female' : 'male',
        ageband: ageBand(person.birthdate, today),
      },
      forms,
    },
    used,
  };
}

/** For ordering: a critical answer first, then the highest band level. */
export function severity(f: ProfileForm): number {
  const critical = f.warnings.some((w) => w.source === 'critical') ? 100 : 0;
  return critical + Math.max(0, ...f.indicators.map((i) => i.level ?? 0));
}

function formOf(latest: SourceReport, previous: SourceReport | null, lang: Lang): ProfileForm {
  const indicators = latest.score.indicators.map((i) => ({
    name: pick(lang, i.name) ?? i.code,
    kind: i.kind,
    score: i.score,
    level: i.level,
    label: pick(lang, i.label),
    interpretation: pick(lang, i.interpretation),
    advice: pick(lang, i.advice),
  }));
  const warnings = latest.score.warnings.map((w) => ({
    source: w.source,
    item: w.source === 'critical' ? (w.no ?? null) : null,
    reason: pick(lang, w.reason) ?? '',
  }));
  let trend: ProfileForm['trend'] = null;
  if (previous) {
    const changes: ProfileChange[] = [];
    for (const now of latest.score.indicators) {
      const before = previous.score.indicators.find((i) => i.code === now.code);
      if (!before) continue;
      const direction =
        now.level !== null && before.level !== null && now.level !== before.level
          ? now.level > before.level
            ? 'worse'
            : 'better'
          : 'same';
      changes.push({
        name: pick(lang, now.name) ?? now.code,
        from: before.score,
        to: now.score,
        fromlevel: before.level,
        tolevel: now.level,
        direction,
      });
    }
    trend = { previousdate: day(previous.createdat), changes };
  }
  return {
    form: latest.formname,
    instrument: latest.formcode,
    date: day(latest.createdat),
    mentalstate: latest.mentalstate,
    indicators,
    warnings,
    trend,
  };
}
