import type { FileUse } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import { appsOf } from '../apps/index.js';
import { noSuchFile, usableFiles } from '../files/index.js';

/** The files must be the institution's own, ready and of their use; the apps the institution's own. */
export async function checkRefs(db: DbOrTx, musercode: string, files: { fileid: string; use: FileUse | FileUse[] }[], appids: string[]) {
  const { bad, missing } = await usableFiles(db, musercode, files);
  if (missing) noSuchFile();
  if (bad) {
    const use = [files.find((f) => f.fileid === bad)!.use].flat()[0]!;
    const what = {
      image: ['图片', 'picture'],
      audio: ['音频', 'audio file'],
      video: ['视频（或音频）', 'video (or audio)'],
      pdf: ['PDF', 'PDF'],
      excel: ['Excel', 'Excel file'],
    }[use];
    invalid({ zh: `须为本机构已上传的${what[0]}`, en: `It must be a ${what[1]} uploaded by the institution` });
  }
  const own = new Set((await appsOf(db, musercode)).map((a) => a.appid));
  const beyond = appids.filter((a) => !own.has(a));
  if (beyond.length)
    invalid({ zh: `机构没有这些应用：${beyond.join(', ')}`, en: `The institution does not have these apps: ${beyond.join(', ')}` });
}
