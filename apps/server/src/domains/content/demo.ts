import type { DbOrTx } from '../../db/database.js';
import type { FileStorage } from '../../kit/storage/index.js';
import { drawPng } from '../../kit/upload/png.js';
import { storeFile } from '../files/index.js';
import { publishArticle, storeArticle } from './articles.js';

/** A soft two-colour cover with a sun or moon, so the demo's articles have pictures. */
function cover(top: [number, number, number], bottom: [number, number, number], disc: [number, number, number]): Buffer {
  const w = 320;
  const h = 180;
  return drawPng(w, h, (x, y) => {
    const dx = x - 240;
    const dy = y - 60;
    if (dx * dx + dy * dy < 900) return disc;
    const f = y / h;
    return [0, 1, 2].map((i) => Math.round(top[i]! * (1 - f) + bottom[i]! * f)) as [number, number, number];
  });
}

const ARTICLES = [
  {
    musercode: 'I0001',
    title: '考前焦虑怎么办？五个马上能用的小方法',
    summary: '深呼吸、把担心写下来、规律作息……让紧张回到可控的范围。',
    colours: [
      [198, 232, 214],
      [67, 167, 119],
      [255, 244, 200],
    ] as const,
    content:
      '<h2>紧张是正常的</h2><p>考试前有些紧张，说明你在乎这件事。适度的紧张能让注意力更集中。</p><h2>五个小方法</h2><ol><li><p><strong>4-7-8 呼吸</strong>：吸气 4 秒，屏息 7 秒，呼气 8 秒，重复 4 次。</p></li><li><p>把担心写在纸上，再写一句自己能做的事。</p></li><li><p>保持平时的作息，考前一晚不熬夜。</p></li><li><p>复习时每 40 分钟起来活动 5 分钟。</p></li><li><p>和信任的人聊一聊。</p></li></ol><blockquote><p>如果紧张已经影响吃饭和睡觉，请联系学校心理老师。</p></blockquote>',
    published: true,
  },
  {
    musercode: 'I0001',
    title: '睡个好觉：青少年睡眠小贴士',
    summary: '每天 8–10 小时睡眠，睡前一小时放下手机。',
    colours: [
      [40, 60, 110],
      [110, 90, 160],
      [250, 245, 220],
    ] as const,
    content:
      '<h2>睡多久才够</h2><p>13–18 岁的青少年每天需要 <strong>8–10 小时</strong>睡眠。</p><ul><li><p>固定起床时间，周末也一样。</p></li><li><p>睡前一小时不看手机和电脑。</p></li><li><p>午睡不超过 30 分钟。</p></li></ul>',
    published: true,
  },
  {
    musercode: 'I0001',
    title: '（草稿）如何和孩子谈论情绪',
    summary: '写给家长：先倾听，再表达。',
    colours: null,
    content: '<p>先倾听，不急着给建议；说出你看到的情绪：“你看起来有些失落”。</p>',
    published: false,
  },
  {
    musercode: 'I0002',
    title: '产后情绪低落，不只是“累了”',
    summary: '了解产后抑郁的信号，及时寻求帮助。',
    colours: [
      [250, 225, 230],
      [220, 140, 160],
      [255, 255, 255],
    ] as const,
    content:
      '<h2>常见信号</h2><ul><li><p>持续两周以上情绪低落、容易哭泣</p></li><li><p>对原本喜欢的事失去兴趣</p></li><li><p>睡眠和食欲明显改变</p></li></ul><p>这些都不是你的错。请告诉家人，并联系医院的心理门诊。</p>',
    published: true,
  },
];

/**
 * The demo's articles, written through the content domain's own store (sanitiser, file checks,
 * file uses) with covers stored through the file store; published ones a day apart. Without a
 * storage (API tests) the articles have no cover.
 */
export async function seedDemoContent(tx: DbOrTx, now: Date, storage?: FileStorage) {
  let n = 0;
  for (const a of ARTICLES) {
    let coverfileid = '';
    if (storage && a.colours) {
      const [top, bottom, disc] = a.colours;
      const file = await storeFile(tx, storage, {
        musercode: a.musercode,
        use: 'image',
        filename: `${a.title.slice(0, 12)}.png`,
        bytes: cover([...top], [...bottom], [...disc]),
        createdby: a.musercode,
        now,
      });
      coverfileid = file.fileid;
    }
    const at = new Date(now.getTime() - (ARTICLES.length - n++) * 86_400_000);
    const articleid = await storeArticle(tx, {
      musercode: a.musercode,
      title: a.title,
      summary: a.summary,
      coverfileid,
      content: a.content,
      createdby: a.musercode,
      now: at,
    });
    if (a.published) await publishArticle(tx, articleid, 1, at);
  }
}
