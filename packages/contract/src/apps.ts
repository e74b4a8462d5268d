/** Population apps (SPEC §1). The custom report app is excluded from the app list (SPEC §6). */
export const PopulationApp = {
  maternity: '000000001',
  students: '000000002',
  workingAdults: '000000003',
  olderAdults: '000000004',
  customReport: '000000005',
} as const;

export type AppId = (typeof PopulationApp)[keyof typeof PopulationApp];

export const populationApps: { appid: AppId; zh: string; en: string }[] = [
  { appid: '000000001', zh: '孕产妇', en: 'Pregnant and postpartum women' },
  { appid: '000000002', zh: '青少年学生', en: 'Students' },
  { appid: '000000003', zh: '高压职业人群', en: 'Working adults' },
  { appid: '000000004', zh: '中老年人', en: 'Older adults' },
  { appid: '000000005', zh: '定制报告', en: 'Custom report' },
];

/** Type 005 accounts get this code on top of their grants (SPEC §6). */
export const PROVIDER_EXTRA_CODE = '0000901';
