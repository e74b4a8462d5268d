import type { DbOrTx } from '../../db/database.js';
import { examStage, examStageForm, muserStage, plan, planAuthorize, planForm, planStage } from './tables.js';

/**
 * Demo stages for all four populations and a few plans authorised to the demo institutions.
 * Stage forms are built-in library scales (seeded as reference data before the demo), and only
 * those whose item text ships (PHQ-9, GAD-7, PHQ-A, GDS-15): a demo plan is given and answered
 * like a real one, and a form without its item text cannot be given (scales/item-text.ts). The
 * EPDS, SCL-90, MHT, PSS-10, ISI and UCLA-3 stay in the library, marked, for an institution
 * holding a licence to copy and complete.
 *
 * The maternity phases follow the Chinese perinatal screening consensus's time points (before 14
 * weeks, 14-28 weeks, from 28 weeks, 42 days postpartum) with the PHQ-9 and GAD-7, both
 * validated for screening pregnant and postpartum women (the PHQ-9's item 9 asks about self-harm).
 */
const stages = [
  { stagecode: 'ST-M1', musercode: 'P0001', appid: '000000001', categoryid: 'C0101', stagename: '孕早期（<14周）', forms: ['PHQ9', 'GAD7'] },
  { stagecode: 'ST-M2', musercode: 'P0001', appid: '000000001', categoryid: 'C0101', stagename: '孕中期（14-28周）', forms: ['PHQ9', 'GAD7'] },
  { stagecode: 'ST-M3', musercode: 'P0001', appid: '000000001', categoryid: 'C0101', stagename: '孕晚期（≥28周）', forms: ['PHQ9', 'GAD7'] },
  { stagecode: 'ST-M4', musercode: 'P0001', appid: '000000001', categoryid: 'C0102', stagename: '产后42天', forms: ['PHQ9', 'GAD7'] },
  { stagecode: 'ST-S1', musercode: 'I0001', appid: '000000002', categoryid: 'C0202', stagename: '初一入学筛查', forms: ['PHQA', 'GAD7'] },
  { stagecode: 'ST-S2', musercode: 'I0001', appid: '000000002', categoryid: 'C0203', stagename: '高一入学筛查', forms: ['PHQA', 'GAD7'] },
  { stagecode: 'ST-W1', musercode: 'P0001', appid: '000000003', categoryid: 'C0301', stagename: '年度心理体检', forms: ['PHQ9', 'GAD7'] },
  { stagecode: 'ST-E1', musercode: 'P0001', appid: '000000004', categoryid: 'C0401', stagename: '社区季度随访', forms: ['GDS15', 'GAD7'] },
  { stagecode: 'ST-E2', musercode: 'P0001', appid: '000000004', categoryid: 'C0402', stagename: '入住评估', forms: ['GDS15', 'PHQ9', 'GAD7'] },
];

/** Provider stages its institutions use. */
const given = [
  ...['ST-M1', 'ST-M2', 'ST-M3', 'ST-M4'].map((stagecode) => ({ musercode: 'I0002', stagecode })),
  ...['ST-E1', 'ST-E2'].map((stagecode) => ({ musercode: 'I0003', stagecode })),
];

const plans = [
  { plancode: 'PL-M1', musercode: 'P0001', appid: '000000001', planname: '孕产期心理健康筛查', stages: ['ST-M1', 'ST-M2', 'ST-M3', 'ST-M4'], iscommon: 1, grant: { musercode: 'I0002', count: 500 } },
  { plancode: 'PL-E1', musercode: 'P0001', appid: '000000004', planname: '老年人心理关爱', stages: ['ST-E1', 'ST-E2'], iscommon: 0, grant: { musercode: 'I0003', count: 200 } },
  { plancode: 'PL-W1', musercode: 'P0001', appid: '000000003', planname: '职场压力测评', stages: ['ST-W1'], iscommon: 0, grant: null },
  { plancode: 'PL-S1', musercode: 'I0001', appid: '000000002', planname: '新生心理普查', stages: ['ST-S1', 'ST-S2'], iscommon: 1, grant: null },
];

const day = (d: Date, offset: number) => new Date(d.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

export async function seedDemoAssessment(tx: DbOrTx, now: Date) {
  await tx.insert(examStage).values(stages.map(({ forms: _f, ...s }, sort) => ({ ...s, sort })));
  await tx.insert(examStageForm).values(stages.flatMap((s) => s.forms.map((formcode, sort) => ({ stagecode: s.stagecode, formcode, sort }))));
  await tx.insert(muserStage).values(given);
  for (const p of plans) {
    await tx.insert(plan).values({ plancode: p.plancode, musercode: p.musercode, appid: p.appid, planname: p.planname, iscommon: p.iscommon });
    await tx.insert(planStage).values(p.stages.map((stagecode, sort) => ({ plancode: p.plancode, stagecode, sort })));
    const forms = p.stages.flatMap((stagecode) => stages.find((s) => s.stagecode === stagecode)!.forms.map((formcode) => ({ stagecode, formcode })));
    await tx.insert(planForm).values(forms.map((f, sort) => ({ plancode: p.plancode, ...f, sort })));
    if (p.grant) {
      await tx.insert(planAuthorize).values({ authid: `PA-${p.plancode}`, plancode: p.plancode, ...p.grant, startdate: day(now, -30), enddate: day(now, 335), grantedby: p.musercode });
    }
  }
}
