import type { DbOrTx } from '../../db/database.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { drawPng } from '../../kit/upload/png.js';
import { toneWav } from '../../kit/upload/wav.js';
import { storeFile } from '../files/files.js';
import { storeCourse, storeTrack } from './media.js';

const TRACKS = [
  { title: '海浪与呼吸', notes: [262, 330, 392, 330], colour: [70, 130, 180] },
  { title: '林间晨光', notes: [294, 370, 440, 370], colour: [90, 160, 110] },
  { title: '睡前放松', notes: [220, 262, 330, 262], colour: [80, 70, 140] },
] as const;

/**
 * The demo's relaxation tracks (short generated tones, so the seed stays small and offline) and
 * courses of the school, through the media store's own checks. Without a storage (API tests)
 * there are no files, so no tracks; the courses then have no cover. Demo courses have no lessons:
 * a video cannot be made in code; staff add lessons by uploading videos.
 */
export async function seedDemoMedia(tx: DbOrTx, now: Date, storage?: FileStorage) {
  if (storage) {
    let sort = 1;
    for (const t of TRACKS) {
      const audio = await storeFile(tx, storage, {
        musercode: 'I0001',
        use: 'audio',
        filename: `${t.title}.wav`,
        bytes: toneWav(4, [...t.notes]),
        createdby: 'I0001',
        now,
      });
      const [r, g, b] = t.colour;
      const cover = await storeFile(tx, storage, {
        musercode: 'I0001',
        use: 'image',
        filename: `${t.title}.png`,
        bytes: drawPng(160, 160, (x, y) =>
          Math.abs(Math.sin(x / 12) * 20 + 80 - y) < 6 ? [255, 255, 255] : [r, g, Math.min(255, b + y / 4)],
        ),
        createdby: 'I0001',
        now,
      });
      await storeTrack(tx, {
        musercode: 'I0001',
        title: t.title,
        audiofileid: audio.fileid,
        coverfileid: cover.fileid,
        sort: sort++,
        appids: ['000000002'],
        now,
      });
    }
  }
  await storeCourse(tx, {
    musercode: 'I0001',
    title: '正念入门（4 课时）',
    description: '每课 10 分钟：觉察呼吸、身体扫描、情绪命名、日常正念。',
    sort: 1,
    appids: ['000000002'],
    lessons: [],
    now,
  });
  await storeCourse(tx, {
    musercode: 'I0001',
    title: '考试压力管理',
    description: '面向初三、高三学生的 3 节短课。',
    sort: 2,
    enabled: 0,
    lessons: [],
    now,
  });
}
