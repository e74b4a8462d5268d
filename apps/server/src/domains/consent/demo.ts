import ExcelJS from 'exceljs';
import type { LocalText } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { writeNotice } from './notice.js';

/**
 * Demo consent: each demo institution has written its own notice (version 1), so the notice page
 * and the respondent's consent step show real text. The school's guardians consent through the
 * product's own paths in the group-assessment demo (tasks/demo.ts): a class consent sheet per
 * class with a few pupils left unmarked, and some of those guardians consenting on the phone.
 */
export const DEMO_NOTICES: Record<string, LocalText> = {
  I0001: {
    zh: '滨江第一中学将处理学生的心理测评答案与结果，以及出生日期、年级、班级等信息，用于了解学生心理健康状况、及早发现需要帮助的同学并提供辅导。只有学校心理中心经授权的老师可以查看；不用于评优、升学或任何其他目的，不向第三方提供（法律另有规定的除外）。记录保存至学生毕业后一年。学生及监护人可以查阅、复制、更正记录，也可以随时撤回同意（撤回后不再安排测评，已形成的报告依法保留）。不满十四周岁的学生须由监护人同意。联系：学校心理中心，0571-8888 1234。',
    en: 'Binjiang No. 1 Middle School will process pupils’ assessment answers and results and their birth date, grade and class, to understand pupils’ mental health, notice early who needs help, and offer counselling. Only authorised teachers of the school’s counselling centre can see them; they are not used for awards, admissions or any other purpose, and are not given to third parties unless the law requires. Records are kept until one year after the pupil leaves. Pupils and guardians may see, copy and correct the record and may withdraw consent at any time (no further assessments are then arranged; existing reports are kept as the law requires). Pupils under 14 need a guardian’s consent. Contact: the counselling centre, 0571-8888 1234.',
  },
  I0002: {
    zh: '本院将处理您的心理测评答案与结果（属于敏感个人信息），用于孕产期心理健康筛查和必要的转介与随访。只有本院经授权的医护人员可以查看，不用于其他目的，不向第三方提供（法律另有规定的除外）。记录按病历保存期限保存。您可以查阅、复制、更正记录，也可以撤回同意；撤回后不再为您安排测评，已形成的报告依法保留。咨询：心理门诊，0571-8666 5678。',
    en: 'The hospital will process your assessment answers and results (sensitive personal information) for perinatal mental-health screening and any referral and follow-up needed. Only authorised clinical staff of the hospital can see them; they are used for no other purpose and not given to third parties unless the law requires. Records are kept for the medical-record retention period. You may see, copy and correct the record and withdraw consent; no further assessments are then arranged for you, and existing reports are kept as the law requires. Questions: the psychology clinic, 0571-8666 5678.',
  },
};

export async function seedConsentDemo(db: DbOrTx, now: Date): Promise<void> {
  for (const [musercode, text] of Object.entries(DEMO_NOTICES)) await writeNotice(db, musercode, text, 'demo', now);
}

/** A drawn signature (a small PNG) for the demo guardians who consent on the phone. */
export const DEMO_SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAKAAAAAwCAAAAACzwi6yAAABBUlEQVR42u3YSw6DMAwE0DnJ3P+WZVGpVb6ehKGgyllVjQjP2IoDeD18IIEJTGACE5jA+4F8j6cC+RnPBJKXCuHwfX+aVPQBC5RLSB+wInmE9AEbkENYrgFbLlzCagV4feeF9fUw+84Km6thXGvq3g0a0ia89qTGwnA3b2ex2yNmdxpGFDWczhQkHtf2k0FAYU/kCrBYp1k0zBS7viDPvb8Rt9j6Bu2k0mGqlki1MiA/bCVHfUO/QqhVLvQdZO1cxXlAclVDSO/e0TmIR61qrPg2j7JiFagH1sveLsYbxSwMlMdY/o4nVjXkjFxKlN5JbvAJFQX7gT2/LCQwgQlMYAIT+FfAAxSOcoEcCTZYAAAAAElFTkSuQmCC';

/** A class consent sheet (as getConsentSheet gives it) marked 是 for every pupil but the numbers in `unmarked` (base64). */
export async function markConsentSheet(sheet: Buffer, unmarked: Set<string>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(sheet as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  ws.eachRow((row, n) => {
    if (n > 1) row.getCell(3).value = unmarked.has(String(row.getCell(1).value)) ? '否' : '是';
  });
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
