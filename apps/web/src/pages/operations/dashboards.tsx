import { useState } from 'react';
import { Tag } from 'antd';
import type { ArticleRow } from '@xinli/contract';
import { f, ListView, useListPage } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
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
  const institutions = useInstitutions();
  const [editing, setEditing] = useState<{ article: ArticleRow | null } | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const states = [
    { value: 1, label: k('states.1') },
    { value: 0, label: k('states.0') },
  ];
  const list = useListPage(LIST, {
    resource: 'operations.article',
    filters: [f.text('title', { maxLength: 100, width: 180 }), f.select('published', states, { width: 120 }), f.institution()],
    invalidates: ['as.m.access.getFilePage'],
  });
  const col = list.colFor<ArticleRow>();
  const publish = (r: ArticleRow, published: 0 | 1) =>
    void list.confirm({
      action: 'as.m.content.publishArticle',
      input: { articleid: r.articleid, published },
      content: k(published ? 'publishConfirm' : 'withdrawConfirm', { name: r.title }),
      success: k(published ? 'published_' : 'withdrawn'),
    });

  return (
    <ListView<ArticleRow>
      list={list}
      rowKey="articleid"
      add={{ action: 'as.m.content.insertArticle', onClick: () => setEditing({ article: null }), testId: 'article-add' }}
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
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.time('updatedat'),
        col.actions(
          (r) => [
            { key: 'preview', label: k('preview'), onClick: () => setPreview(r.articleid), testId: `article-preview-${r.articleid}` },
            {
              key: 'edit',
              action: 'as.m.content.updateArticle',
              onClick: () => setEditing({ article: r }),
              testId: `article-edit-${r.articleid}`,
            },
            r.published
              ? {
                  key: 'withdraw',
                  label: k('withdraw'),
                  action: 'as.m.content.publishArticle',
                  onClick: () => publish(r, 0),
                  testId: `article-withdraw-${r.articleid}`,
                }
              : {
                  key: 'publish',
                  label: k('publish'),
                  action: 'as.m.content.publishArticle',
                  onClick: () => publish(r, 1),
                  testId: `article-publish-${r.articleid}`,
                },
            col.remove('as.m.content.deleteArticle', { articleid: r.articleid }, r.title, { more: true }),
          ],
          { width: 200 },
        ),
      ]}
    >
      <ArticleDialog open={!!editing} article={editing?.article ?? null} onClose={() => setEditing(null)} />
      <ArticlePreview articleid={preview} onClose={() => setPreview(null)} />
    </ListView>
  );
}
