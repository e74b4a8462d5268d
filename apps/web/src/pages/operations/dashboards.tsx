import { useState } from 'react';
import { Tag } from 'antd';
import type { ArticleRow } from '@xinli/contract';
import { f, ListView } from '../../components/list';
import { useOwnedList } from './owned-list';
import ArticleDialog from './ArticleDialog';
import ArticlePreview from './ArticlePreview';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.content.getArticlePage';

/**
 * Articles ("tweets", dashboards 00028): what the institution publishes to its respondents. Write
 * with the rich-text editor, preview as a respondent sees it, publish or withdraw; respondents read
 * the published ones through the institution's QR link (/r/<link>/articles).
 */
export default function Dashboards() {
  const k = useT('operations.article');
  const [preview, setPreview] = useState<string | null>(null);
  const states = [
    { value: 1, label: k('states.1') },
    { value: 0, label: k('states.0') },
  ];
  const { list, col, dialog, insnameCol } = useOwnedList<ArticleRow>(LIST, {
    resource: 'operations.article',
    title: 'title',
    titleMax: 100,
    filter: f.select('published', states, { width: 120 }),
  });
  const publish = (r: ArticleRow, published: 0 | 1, key: 'publish' | 'withdraw') =>
    col.confirmed(
      {
        action: 'as.m.content.publishArticle',
        input: { articleid: r.articleid, published },
        content: k(published ? 'publishConfirm' : 'withdrawConfirm', { name: r.title }),
        success: k(published ? 'published_' : 'withdrawn'),
      },
      { key, label: k(key), testId: `article-${key}-${r.articleid}` },
    );

  return (
    <ListView<ArticleRow>
      list={list}
      rowKey="articleid"
      add={{ action: 'as.m.content.insertArticle', onClick: dialog.add, testId: 'article-add' }}
      columns={[
        col.text('title', {
          width: 260,
          render: (v: string, r) => (
            <a onClick={() => setPreview(r.articleid)} className="article-title-cell" data-testid={`article-open-${r.articleid}`}>
              {r.coverurl && <img src={r.coverurl} alt="" className="file-thumb" />}
              {v}
            </a>
          ),
        }),
        col.text('summary', { width: 200, ellipsis: true }),
        col.text('published', { width: 90, render: (v: number) => <Tag color={v ? 'green' : undefined}>{k(`states.${v as 0 | 1}`)}</Tag> }),
        col.time('publishedat'),
        ...insnameCol,
        col.time('updatedat'),
        col.actions(
          (r) => [
            { key: 'preview', label: k('preview'), onClick: () => setPreview(r.articleid), testId: `article-preview-${r.articleid}` },
            { key: 'edit', action: 'as.m.content.updateArticle', onClick: () => dialog.edit(r), testId: `article-edit-${r.articleid}` },
            r.published ? publish(r, 0, 'withdraw') : publish(r, 1, 'publish'),
            col.remove('as.m.content.deleteArticle', { articleid: r.articleid }, r.title, { more: true }),
          ],
          { width: 200 },
        ),
      ]}
    >
      <ArticleDialog {...dialog.props} />
      <ArticlePreview articleid={preview} onClose={() => setPreview(null)} />
    </ListView>
  );
}
