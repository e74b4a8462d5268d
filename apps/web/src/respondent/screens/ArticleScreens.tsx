import { INSTITUTION_TIME_ZONE, type ActionOutput } from '@xinli/contract';
import { call } from '../api';
import { currentLang, t } from '../i18n';
import { ErrorBox, Loading, Screen } from '../components/Screen';
import { PageLink, entryHref } from '../components/PageLink';
import { useLoad } from '../useLoad';

type ArticleList = ActionOutput<'as.c.content.getArticles'>;
type Article = ActionOutput<'as.c.content.getArticle'>;

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(currentLang(), { timeZone: INSTITUTION_TIME_ZONE });

/** The institution's published articles (`/r/<entry>/articles`), newest first. */
export function ArticleListScreen({ entrytoken }: { entrytoken: string }) {
  const { data, error } = useLoad<ArticleList>(() => call('as.c.content.getArticles', { entrytoken, page: 1, pageSize: 50 }), entrytoken);
  return (
    <Screen heading={t('articles.heading')} brand={data ? data.title || data.insname : ''}>
      {error ? (
        <ErrorBox message={error.message} />
      ) : !data ? (
        <Loading />
      ) : data.rows.length === 0 ? (
        <p>{t('articles.none')}</p>
      ) : (
        <ul className="r-articles" data-testid="r-articles">
          {data.rows.map((a) => (
            <li key={a.articleid}>
              <a
                href={entryHref(entrytoken, `articles/${a.articleid}`)}
                className="r-article-card"
                data-testid={`r-article-${a.articleid}`}
              >
                {a.coverurl && <img src={a.coverurl} alt="" />}
                <span className="r-article-text">
                  <span className="r-article-title">{a.title}</span>
                  {a.summary && <span className="r-article-summary">{a.summary}</span>}
                  <span className="r-article-date">{dateOf(a.publishedat)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <PageLink href={entryHref(entrytoken)}>{t('articles.backToEntry')}</PageLink>
    </Screen>
  );
}

/** One published article (`/r/<entry>/articles/<id>`): cover, title, date and the sanitised body. */
export function ArticleScreen({ entrytoken, articleid }: { entrytoken: string; articleid: string }) {
  const { data, error } = useLoad<Article>(() => call('as.c.content.getArticle', { entrytoken, articleid }), `${entrytoken}/${articleid}`);
  return (
    <Screen heading={data?.title ?? t('articles.heading')} brand={data?.insname ?? ''} focusKey={articleid}>
      {error ? (
        <ErrorBox message={error.message} />
      ) : !data ? (
        <Loading />
      ) : (
        <article data-testid="r-article">
          {data.coverurl && <img className="r-article-cover" src={data.coverurl} alt="" />}
          <p className="r-article-date">{dateOf(data.publishedat)}</p>
          {/* The server keeps only what its allow-list lets through (content/sanitize.ts). */}
          <div className="r-article-body" dangerouslySetInnerHTML={{ __html: data.content }} />
        </article>
      )}
      <PageLink href={entryHref(entrytoken, 'articles')}>{t('articles.backToList')}</PageLink>
    </Screen>
  );
}
