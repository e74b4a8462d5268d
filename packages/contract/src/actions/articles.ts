import { z } from 'zod';
import { action, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';

/**
 * Articles ("tweets", dashboards 00028): what an institution publishes to its respondents. The
 * body is rich text, sanitised on the server with an allow-list (no script, no event handlers, no
 * javascript: URLs; pictures only from the institution's own file store); respondents read the
 * published ones through the institution's QR entry (`/r/<entrytoken>/articles`).
 */
const ARTICLES = codes('00028');

/** Characters of an article's HTML body. */
export const ARTICLE_MAX_HTML = 200_000;

const entrytoken = z
  .string()
  .trim()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const articleRow = z.object({
  articleid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  title: z.string(),
  summary: z.string(),
  coverfileid: z.string(),
  coverurl: z.string(),
  /** 1 published (respondents see it), 0 draft or withdrawn. */
  published: flag,
  publishedat: z.string().nullable(),
  createdat: z.string(),
  updatedat: z.string(),
});
export type ArticleRow = z.infer<typeof articleRow>;

export const articleDetail = articleRow.extend({ content: z.string() });
export type ArticleDetail = z.infer<typeof articleDetail>;

const articleFields = {
  title: requiredText(100),
  summary: text(300).default(''),
  /** An image of the institution's file store, or '' for none. */
  coverfileid: z.union([idString, z.literal('')]).default(''),
  content: z.string().max(ARTICLE_MAX_HTML).default(''),
};

/** What a respondent sees of an article. */
export const publicArticle = z.object({
  articleid: z.string(),
  title: z.string(),
  summary: z.string(),
  coverurl: z.string(),
  publishedat: z.string(),
});

export const articleActions = {
  'as.m.content.getArticlePage': action({
    access: ARTICLES,
    kind: 'json',
    op: 'list',
    summary: 'Articles of the caller’s institutions (or of one musercode), newest first; filter by title and published.',
    input: z.strictObject({ musercode: idString.optional(), title: text(100).optional(), published: flag.optional(), ...pageFields }),
    output: pageOf(articleRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.content.getArticle': action({
    access: ARTICLES,
    kind: 'json',
    op: 'read',
    summary: 'One article in scope with its (sanitised) body.',
    input: z.strictObject({ articleid: idString }),
    output: articleDetail,
    ids: { articleid: 'article' },
  }),
  'as.m.content.insertArticle': action({
    access: ARTICLES,
    kind: 'json',
    op: 'write',
    summary:
      'Write an article (a draft) for the caller or an institution in scope; the body is sanitised with an allow-list and may show only pictures of that institution’s file store.',
    input: z.strictObject({ musercode: idString.optional(), ...articleFields }),
    output: z.object({ articleid: z.string() }),
    ids: { musercode: 'muser', coverfileid: 'file' },
  }),
  'as.m.content.updateArticle': action({
    access: ARTICLES,
    kind: 'json',
    op: 'write',
    summary: 'Change an article in scope (sanitised like a new one); a published article stays published.',
    input: z.strictObject({ articleid: idString, ...articleFields }),
    output: z.null(),
    ids: { articleid: 'article', coverfileid: 'file' },
  }),
  'as.m.content.publishArticle': action({
    access: ARTICLES,
    kind: 'json',
    op: 'write',
    summary: 'Publish (1) or withdraw (0) an article in scope; respondents see only published ones.',
    input: z.strictObject({ articleid: idString, published: flag }),
    output: z.null(),
    ids: { articleid: 'article' },
  }),
  'as.m.content.deleteArticle': action({
    access: ARTICLES,
    kind: 'json',
    op: 'write',
    summary: 'Delete an article in scope; the files it used may then be deleted.',
    input: z.strictObject({ articleid: idString }),
    output: z.null(),
    ids: { articleid: 'article' },
  }),
  'as.c.content.getArticles': action({
    access: 'public',
    kind: 'json',
    op: 'list',
    summary: 'The published articles of the institution of a QR entry, newest first (rate-limited per address).',
    input: z.strictObject({ entrytoken, ...pageFields }),
    output: z.object({ insname: z.string(), title: z.string(), total: z.int(), rows: z.array(publicArticle) }),
  }),
  'as.c.content.getArticle': action({
    access: 'public',
    kind: 'json',
    op: 'read',
    summary: 'One published article of the institution of a QR entry (rate-limited per address).',
    input: z.strictObject({ entrytoken, articleid: idString }),
    output: publicArticle.extend({ content: z.string(), insname: z.string() }),
    ids: { articleid: 'article' },
  }),
};
