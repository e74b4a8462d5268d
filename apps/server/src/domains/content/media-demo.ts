import type { DbOrTx } from '../../db/database.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { drawPng } from '../../kit/upload/png.js';
import { toneWav } from '../../kit/upload/wav.js';
import { storeFile } from '../files/index.js';
import { storeCourse } from './courses.js';
import { storeTrack } from './music.js';

const TRACKS = [
  { title: '海浪与呼吸', notes: [262, 330, 392, 330], colour: [70, 130, 180] },
  { title: '林间晨光', notes: [294, 370, 440, 370], colour: [90, 160, 110] },
  { title: '睡前放松', notes: [220, 262, 330, 262], colour: [80, 70, 140] },
] as const;

const COURSES = [
  {
    title: '正念入门（4 课时）',
    description: '觉察呼吸、身体扫描、情绪命名、日常正念，每课一段音频（演示数据为生成的提示音）。',
    enabled: 1,
    appids: ['000000002'],
    lessons: [
      ['第 1 课 觉察呼吸', [262, 294]],
      ['第 2 课 身体扫描', [294, 330]],
      ['第 3 课 情绪命名', [330, 392]],
      ['第 4 课 日常正念', [392, 440]],
    ],
  },
  {
    title: '考试压力管理',
    description: '面向初三、高三学生的 3 节短课。',
    enabled: 0,
    appids: [],
    lessons: [
      ['第 1 课 认识压力', [220, 262]],
      ['第 2 课 放松训练', [247, 294]],
      ['第 3 课 考前一周', [262, 330]],
    ],
  },
] as const;

/** A file of the school's store, through the files domain's own checks (content sniffing, generated key). */
const demoFile = (tx: DbOrTx, storage: FileStorage, now: Date, use: 'audio' | 'image', filename: string, bytes: Buffer) =>
  storeFile(tx, storage, { musercode: 'I0001', use, filename, bytes, createdby: 'I0001', now });

/**
 * The demo's relaxation tracks and the school's courses, through the media store's own checks.
 * Tracks and lessons are short generated tones (WAV: a video cannot be made in code without a
 * codec, so the demo lessons are recorded talks' stand-ins, which the course page plays as audio);
 * the seed stays small and offline. Without a storage (API tests) there are no files, so no tracks
 * and courses without lessons. Answers the courses' ids in order (the demo goods sell the first).
 */
export async function seedDemoMedia(tx: DbOrTx, now: Date, storage?: FileStorage): Promise<string[]> {
  if (storage) {
    let sort = 1;
    for (const t of TRACKS) {
      const audio = await demoFile(tx, storage, now, 'audio', `${t.title}.wav`, toneWav(4, [...t.notes]));
      const [r, g, b] = t.colour;
      const cover = await demoFile(
        tx,
        storage,
        now,
        'image',
        `${t.title}.png`,
        drawPng(160, 160, (x, y) => (Math.abs(Math.sin(x / 12) * 20 + 80 - y) < 6 ? [255, 255, 255] : [r, g, Math.min(255, b + y / 4)])),
      );
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
  const ids: string[] = [];
  for (const [i, c] of COURSES.entries()) {
    const lessons = [];
    if (storage)
      for (const [title, notes] of c.lessons)
        lessons.push({ title, videofileid: (await demoFile(tx, storage, now, 'audio', `${title}.wav`, toneWav(6, [...notes]))).fileid });
    ids.push(
      await storeCourse(tx, {
        musercode: 'I0001',
        title: c.title,
        description: c.description,
        sort: i + 1,
        enabled: c.enabled,
        appids: [...c.appids],
        lessons,
        now,
      }),
    );
  }
  return ids;
}
