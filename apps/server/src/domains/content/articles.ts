import { and, asc, desc, eq } from 'drizzle-orm';
import type { ArticleRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid, notFound } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { accountNames, ownedBy, ownerAccount } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { limitedEntry, resolveEntryToken } from '../assessments/index.js';
import { fileUrls, filesByKeys, noSuchFile, setFileUses, usableFiles } from '../files/index.js';
import { sanitizeArticle } from './sanitize.js';
import { article } from './tables.js';

type ArticleRecord = typeof article.$inferSelect;

const noSuchArticle = () => notFound({ zh: '文章不存在', en: 'No such article' });

async function rowsOut(db: DbOrTx, rows: ArticleRecord[]): Promise<ArticleRow[]> {
  const [names, covers] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    fileUrls(
      db,
      rows.map((r) => r.coverfileid),
    ),
  ]);
  return rows.map((r) => ({
    articleid: r.articleid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    title: r.title,
    summary: r.summary,
    coverfileid: r.coverfileid ?? '',
    coverurl: r.coverfileid ? (covers.get(r.coverfileid) ?? '') : '',
    published: r.published as 0 | 1,
    publishedat: r.publishedat ? iso(r.publishedat) : null,
    createdat: iso(r.createdat),
    updatedat: iso(r.updatedat),
  }));
}

/**
 * The body and cover checked for an institution: the body through the allow-list, every picture
 * it shows and the cover an image of that institution's own file store. Answers the clean body and
 * the files the article uses.
 */
async function checkedContent(db: DbOrTx, musercode: string, coverfileid: string, content: string) {
  const { html, keys } = sanitizeArticle(content);
  const pictures = await filesByKeys(db, keys);
  const wanted = [
    ...pictures.map((f) => ({ fileid: f.fileid, use: 'image' as const })),
    ...(coverfileid ? [{ fileid: coverfileid, use: 'image' as const }] : []),
  ];
  const { bad, missing } = await usableFiles(db, musercode, wanted);
  if (missing && missing === coverfileid) noSuchFile();
  if (bad === coverfileid && coverfileid)
    invalid({ zh: '封面须为本机构已上传的图片', en: 'The cover must be a picture uploaded by the institution' });
  if (bad || pictures.length !== keys.length)
    invalid({ zh: '正文中的图片须为本机构已上传的图片', en: 'Pictures in the text must be pictures uploaded by the institution' });
  return { html, files: wanted.map((w) => w.fileid) };
}

async function articleInScope(ctx: Ctx, db: DbOrTx, articleid: string): Promise<ArticleRecord> {
  const [row] = await db
    .select()
    .from(article)
    .where(and(eq(article.articleid, articleid), scopeWhere(article.musercode, ctx.me)));
  return row ?? noSuchArticle();
}

async function entryOf(db: DbOrTx, entrytoken: string) {
  return (
    (await resolveEntryToken(db, entrytoken)) ??
    notFound({
      zh: '二维码已失效，请向机构索取新的二维码',
      en: 'This QR code is no longer valid; please ask the institution for a new one',
    })
  );
}

const publicOf = (r: ArticleRecord, covers: Map<string, string>) => ({
  articleid: r.articleid,
  title: r.title,
  summary: r.summary,
  coverurl: r.coverfileid ? (covers.get(r.coverfileid) ?? '') : '',
  publishedat: iso(r.publishedat!),
});

export interface NewArticle {
  musercode: string;
  title: string;
  summary?: string;
  coverfileid?: string;
  content: string;
  createdby: string;
  now: Date;
}

/** Writes an article through the same checks as the console (also the demo seed's way in). */
export async function storeArticle(db: DbOrTx, a: NewArticle): Promise<string> {
  const { html, files } = await checkedContent(db, a.musercode, a.coverfileid ?? '', a.content);
  const articleid = newId('AR');
  await db.transaction(async (tx) => {
    await tx.insert(article).values({
      articleid,
      musercode: a.musercode,
      title: a.title,
      summary: a.summary ?? '',
      coverfileid: a.coverfileid || null,
      content: html,
      createdby: a.createdby,
      createdat: a.now,
      updatedat: a.now,
    });
    await setFileUses(tx, 'article', articleid, files);
  });
  return articleid;
}

export async function publishArticle(db: DbOrTx, articleid: string, published: 0 | 1, now: Date) {
  await db
    .update(article)
    .set({ published, publishedat: published ? now : null, updatedat: now })
    .where(eq(article.articleid, articleid));
}

export const articleHandlers = {
  'as.m.content.getArticlePage': async ({ musercode, title, published, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, article.musercode, musercode),
      contains(article.title, title),
      published === undefined ? undefined : eq(article.published, published),
    );
    const query = ctx.db.select().from(article).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(article.createdat), asc(article.articleid)], { page, pageSize });
    return { total, rows: await rowsOut(ctx.db, rows) };
  },

  'as.m.content.getArticle': async ({ articleid }, ctx) => {
    const row = await articleInScope(ctx, ctx.db, articleid);
    const [out] = await rowsOut(ctx.db, [row]);
    return { ...out!, content: row.content };
  },

  'as.m.content.insertArticle': async ({ musercode, title, summary, coverfileid, content }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const articleid = await storeArticle(ctx.db, {
      musercode: owner.musercode,
      title,
      summary,
      coverfileid,
      content,
      createdby: ctx.me.userid ?? ctx.me.musercode,
      now: ctx.now(),
    });
    await ctx.audit({ result: 'ok', detail: { articleid, target: owner.musercode } });
    return { articleid };
  },

  'as.m.content.updateArticle': async ({ articleid, title, summary, coverfileid, content }, ctx) => {
    const row = await articleInScope(ctx, ctx.db, articleid);
    const { html, files } = await checkedContent(ctx.db, row.musercode, coverfileid, content);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(article)
        .set({ title, summary, coverfileid: coverfileid || null, content: html, updatedat: ctx.now() })
        .where(eq(article.articleid, articleid));
      await setFileUses(tx, 'article', articleid, files);
    });
    await ctx.audit({ result: 'ok', detail: { articleid } });
    return null;
  },

  'as.m.content.publishArticle': async ({ articleid, published }, ctx) => {
    await articleInScope(ctx, ctx.db, articleid);
    await publishArticle(ctx.db, articleid, published, ctx.now());
    await ctx.audit({ result: 'ok', detail: { articleid, published } });
    return null;
  },

  'as.m.content.deleteArticle': async ({ articleid }, ctx) => {
    await articleInScope(ctx, ctx.db, articleid);
    await ctx.db.transaction(async (tx) => {
      await setFileUses(tx, 'article', articleid, []);
      await tx.delete(article).where(eq(article.articleid, articleid));
    });
    await ctx.audit({ result: 'ok', detail: { articleid } });
    return null;
  },

  'as.c.content.getArticles': async ({ entrytoken, page, pageSize }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const query = ctx.db
        .select()
        .from(article)
        .where(and(eq(article.musercode, entry.musercode), eq(article.published, 1)))
        .$dynamic();
      const { total, rows } = await paged(ctx.db, query, [desc(article.publishedat), asc(article.articleid)], { page, pageSize });
      const covers = await fileUrls(
        ctx.db,
        rows.map((r) => r.coverfileid),
      );
      const insname = (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '';
      return { insname, title: entry.title, total, rows: rows.map((r) => publicOf(r, covers)) };
    }),

  'as.c.content.getArticle': async ({ entrytoken, articleid }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const [row] = await ctx.db
        .select()
        .from(article)
        .where(and(eq(article.articleid, articleid), eq(article.musercode, entry.musercode), eq(article.published, 1)));
      if (!row) noSuchArticle();
      const covers = await fileUrls(ctx.db, [row!.coverfileid]);
      const insname = (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '';
      return { ...publicOf(row!, covers), content: row!.content, insname };
    }),
} satisfies HandlerMap;
