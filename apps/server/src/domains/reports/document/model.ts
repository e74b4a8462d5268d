import type { Lang, ReportDetail, ReportSection } from '@xinli/contract';

/**
 * Everything the printable report shows, gathered once (data.ts) and rendered by a pure function
 * (template.ts), so the template is unit-tested without a database.
 */
export interface DocumentModel {
  lang: Lang;
  institution: {
    name: string;
    /** A data: URL of the institution's logo, or null (accounts have no logo yet). */
    logo: string | null;
  };
  report: ReportDetail;
  person: {
    /** Unmasked: the document is an official record for staff (the read is audited). */
    realname: string;
    gender: string;
    /** Whole years at the report's date, null when the birth date is unknown. */
    age: number | null;
  };
  /** The person's results of the same form up to and including this report, oldest first. */
  trend: TrendPoint[];
  /** PHQ-9 only: the total's level and item 9 of each result in the trend, oldest first. */
  phq9: Phq9Point[] | null;
  comments: DocumentComment[];
  /** When the document was made (the server clock), an ISO instant. */
  printedat: string;
  /** The custom report's template version rendering it (issue 31 §4, layout.ts); absent: the standard report. */
  layout?: DocumentLayout;
}

/** What a custom report template decides of the document (its band texts and header are applied to the model). */
export interface DocumentLayout {
  versionid: string;
  /** The template's name and version, printed small at the foot of the sign-off. */
  name: string;
  version: number;
  /** The document's title; empty: the standard title. */
  title: string;
  sections: ReportSection[];
  /** The sign-off line; empty: the standard words. */
  signoff: string;
}

export interface TrendPoint {
  reportid: string;
  createdat: string;
  mentalstate: number;
  /** Named in the caller's language (from this report's form version; the code when it lacks one). */
  indicators: { code: string; name: string; score: number; level: number | null; colour: string | null }[];
}

export interface Phq9Point {
  reportid: string;
  createdat: string;
  score: number | null;
  level: number | null;
  /** Item 9 (thoughts of self-harm) score 0-3, null when not answered. */
  item9: number | null;
}

export interface DocumentComment {
  author: string;
  createdat: string;
  text: string;
}
