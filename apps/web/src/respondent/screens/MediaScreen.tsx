import type { ActionOutput } from '@xinli/contract';
import { call } from '../api';
import { t } from '../i18n';
import { ErrorBox, Loading, Screen } from '../components/Screen';
import { PageLink, entryHref } from '../components/PageLink';
import { ordersOf } from '../orders';
import { useLoad } from '../useLoad';

type Media = ActionOutput<'as.c.content.getMedia'>;

/**
 * The institution's enabled tracks and courses for the entry's apps (`/r/<entry>/media`). A course
 * sold by goods on sale is locked (lesson titles only, a link to the shop) unless this phone bought it.
 */
export function MediaScreen({ entrytoken }: { entrytoken: string }) {
  // The orders this phone paid show which sold courses are the buyer's.
  const { data: media, error } = useLoad<Media>(
    () => call('as.c.content.getMedia', { entrytoken, ordertokens: ordersOf(entrytoken) }),
    entrytoken,
  );
  return (
    <Screen heading={t('media.heading')} brand={media ? media.title || media.insname : ''}>
      {error ? (
        <ErrorBox message={error.message} />
      ) : !media ? (
        <Loading />
      ) : (
        <>
          <h2 className="r-media-h2">{t('media.music')}</h2>
          {media.tracks.length === 0 && <p>{t('media.none')}</p>}
          <ul className="r-articles" data-testid="r-tracks">
            {media.tracks.map((m) => (
              <li key={m.trackid} className="r-goods-card">
                {m.coverurl && <img src={m.coverurl} alt="" />}
                <div className="r-article-text" style={{ flex: 1 }}>
                  <h3 className="r-goods-name">{m.title}</h3>
                  <audio controls preload="none" src={m.audiourl} aria-label={m.title} style={{ width: '100%' }} />
                </div>
              </li>
            ))}
          </ul>
          <h2 className="r-media-h2">{t('media.courses')}</h2>
          {media.courses.length === 0 && <p>{t('media.none')}</p>}
          {media.courses.map((c) => (
            <section
              key={c.courseid}
              id={`course-${c.courseid}`}
              className="r-course"
              data-testid={`r-course-${c.courseid}`}
              data-locked={c.locked ? 'true' : 'false'}
            >
              {c.coverurl && <img className="r-article-cover" src={c.coverurl} alt="" />}
              <h3 className="r-goods-name">{c.title}</h3>
              {c.locked && <span className="r-course-state">{t('media.locked')}</span>}
              {c.bought && <span className="r-course-state bought">{t('media.bought')}</span>}
              {c.description && <p className="r-article-summary">{c.description}</p>}
              <ol className="r-lessons">
                {c.lessons.map((l) => (
                  <li key={l.lessonno}>
                    {c.locked ? (
                      <div className="r-locked-lesson">{l.title}</div>
                    ) : (
                      <details>
                        <summary>{l.title}</summary>
                        {l.mediatype === 'audio' ? (
                          <audio controls preload="none" src={l.videourl} aria-label={l.title} style={{ width: '100%' }} />
                        ) : (
                          <video controls preload="none" src={l.videourl} aria-label={l.title} style={{ width: '100%' }} />
                        )}
                      </details>
                    )}
                  </li>
                ))}
              </ol>
              {c.locked && (
                <a className="r-link" href={entryHref(entrytoken, 'shop')} data-testid={`r-course-buy-${c.courseid}`}>
                  {t('media.buyIt')}
                </a>
              )}
            </section>
          ))}
        </>
      )}
      <PageLink href={entryHref(entrytoken)}>{t('articles.backToEntry')}</PageLink>
    </Screen>
  );
}
