import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../components/list';
import { useAction } from '../../components/query';
import { formatTime } from '../../lib/format';

/**
 * An article as a respondent sees it on the phone: the respondent page's column width and type,
 * the cover, title, date and body (the HTML the server kept after sanitising, shown as it is).
 */
export default function ArticlePreview({ articleid, onClose }: { articleid: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useAction('as.m.content.getArticle', { articleid: articleid ?? '' }, { enabled: !!articleid });
  return (
    <Modal open={!!articleid} title={t('operations.article.previewTitle')} footer={null} onCancel={onClose} width={460} destroyOnHidden>
      <Loaded query={q}>
        {(a) => (
          <div className="article-phone" data-testid="article-preview">
            {a.coverurl && <img className="article-cover" src={a.coverurl} alt="" />}
            <h1 className="article-title">{a.title}</h1>
            <p className="article-meta">
              {a.insname}
              {a.publishedat ? ` · ${formatTime(a.publishedat).slice(0, 10)}` : ` · ${t('operations.article.draft')}`}
            </p>
            {/* Sanitised by the server's allow-list (content/sanitize.ts) before it was stored. */}
            <div className="article-body" dangerouslySetInnerHTML={{ __html: a.content }} />
          </div>
        )}
      </Loaded>
    </Modal>
  );
}
