import type { NormChangeRule } from '@xinli/contract';

/**
 * The norms the platform ships with its built-in instruments (issue 31 §2), from
 * ../shared/research/norms.md. Each has a stable id, so the start-up sync (norms.ts) finds it
 * again; the super account may edit or replace it like any norm. Figures whose copies disagree
 * take the value most copies give (人际敏感 SD 0.61, 敌对 1.48 ± 0.56); the source line says so.
 */
export interface BuiltInNorm {
  normid: string;
  formcode: string;
  name: { zh: string; en: string };
  population: { zh: string; en: string };
  samplesize: number;
  year: number;
  source: string;
  scales: { code: string; mean: number; sd: number }[];
  change: NormChangeRule | null;
  isdefault: 0 | 1;
}

export const builtInNorms: BuiltInNorm[] = [
  {
    normid: 'NMSCL90CN1986',
    formcode: 'SCL90',
    name: { zh: 'SCL-90 全国常模（1986）', en: 'SCL-90 Chinese national norm (1986)' },
    population: { zh: '全国成人', en: 'Chinese adults' },
    samplesize: 1388,
    year: 1986,
    source:
      '金华、吴文源、张明园（1986）中国正常成人SCL-90常模，n = 1388。原文未能核对，数值取自公开实现与转载（jizihe.com/page/2020/0327/17173500.shtml）；人际敏感SD另有0.51、敌对另有1.46 ± 0.55的版本。',
    scales: [
      { code: 'TOTAL', mean: 129.96, sd: 38.76 },
      { code: 'GSI', mean: 1.44, sd: 0.43 },
      { code: 'PCOUNT', mean: 24.92, sd: 18.41 },
      { code: 'NCOUNT', mean: 65.08, sd: 18.33 },
      { code: 'PSDI', mean: 2.6, sd: 0.59 },
      { code: 'SOM', mean: 1.37, sd: 0.48 },
      { code: 'OC', mean: 1.62, sd: 0.58 },
      { code: 'IS', mean: 1.65, sd: 0.61 },
      { code: 'DEP', mean: 1.5, sd: 0.59 },
      { code: 'ANX', mean: 1.39, sd: 0.43 },
      { code: 'HOS', mean: 1.48, sd: 0.56 },
      { code: 'PHOB', mean: 1.23, sd: 0.41 },
      { code: 'PAR', mean: 1.43, sd: 0.57 },
      { code: 'PSY', mean: 1.29, sd: 0.42 },
    ],
    // Reliable change on the total: SD of the national norm, internal consistency of the Chinese
    // version; the cut-off is the Chinese screening rule "total > 160".
    change: {
      code: 'TOTAL',
      reliability: 0.98,
      reliabilitysource:
        '中文版SCL-90总量表Cronbach α = 0.98（南京市4所中学1142名13~18岁学生的信效度研究，jxxfw.com/periodical/33670cd933016505619ced66a1564690.html）',
      cutoff: 160,
      higherworse: true,
    },
    isdefault: 1,
  },
];
