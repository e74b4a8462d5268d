/**
 * The four population apps and their pages (SPEC §2): each population has an /empower page
 * (give assessments), a reports page, an archive list and an archive detail page. The routes
 * come from the menu table; this maps an app id to them.
 */
import { PopulationApp } from '@xinli/contract';

export interface PopulationPages {
  appid: string;
  empower: string;
  reports: string;
  archives: string;
  archive: string;
}

export const populationPages: PopulationPages[] = [
  {
    appid: PopulationApp.maternity,
    empower: '/empower/maternity',
    reports: '/empower/usersReport2',
    archives: '/archives/archives_gl_yf',
    archive: '/archives/archivesyh1',
  },
  {
    appid: PopulationApp.students,
    empower: '/empower/youngsters',
    reports: '/empower/usersReport',
    archives: '/archives/archives_gl_ye',
    archive: '/archives/archivesyh2',
  },
  {
    appid: PopulationApp.workingAdults,
    empower: '/empower/highPressure',
    reports: '/empower/usersReport3',
    archives: '/archives/archives_gl_yg',
    archive: '/archives/archivesyh3',
  },
  {
    appid: PopulationApp.olderAdults,
    empower: '/empower/theOld',
    reports: '/empower/usersReport4',
    archives: '/archives/archives_gl_yl',
    archive: '/archives/archivesyh4',
  },
];

export const pagesOf = (appid: string | undefined): PopulationPages | undefined => populationPages.find((p) => p.appid === appid);

/** Masks an ID number for a list (1101**********1234) unless the server already did. */
export function maskIdCard(value: string | null | undefined): string {
  const s = (value ?? '').trim();
  if (!s || s.includes('*') || s.length < 9) return s;
  return `${s.slice(0, 4)}${'*'.repeat(s.length - 8)}${s.slice(-4)}`;
}
