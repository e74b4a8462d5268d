import { lazy, Suspense, useState } from 'react';
import { Form, Input, Spin } from 'antd';
import { articleActions, type ActionInput, type ArticleRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { CoverInput, OwnerField, type ShownCover } from './DialogFields';

const ArticleEditor = lazy(() => import('./ArticleEditor'));

type ArticleForm = ActionInput<'as.m.content.insertArticle'>;

/** Write or change an article: title, summary, cover picture and the rich-text body. */
export default function ArticleDialog({ open, item: article, onClose }: { open: boolean; item: ArticleRow | null; onClose: () => void }) {
  const [form] = Form.useForm<ArticleForm>();
  const [cover, setCover] = useState<ShownCover | null>(null);
  const owner = Form.useWatch('musercode', form) ?? article?.musercode;
  const detail = useAction('as.m.content.getArticle', { articleid: article?.articleid ?? '' }, { enabled: open && !!article });
  const coverShown = cover ?? (article && detail.data?.coverurl ? { url: detail.data.coverurl, filename: detail.data.title } : null);
  return (
    <FormDialog<ArticleForm>
      open={open}
      editing={!!article}
      action={articleActions[article ? 'as.m.content.updateArticle' : 'as.m.content.insertArticle']}
      resource="operations.article"
      form={form}
      // The edit form is the article read afresh (its body is not in the list row).
      record={article ? detail.data : null}
      load={article ? { loading: detail.isLoading, error: detail.error, retry: () => void detail.refetch() } : undefined}
      width={860}
      invalidates={['as.m.content.getArticlePage', 'as.m.access.getFilePage']}
      onSubmit={(v) => (article ? call('as.m.content.updateArticle', { articleid: article.articleid, ...v }) : call('as.m.content.insertArticle', v))}
      onClose={() => {
        setCover(null);
        onClose();
      }}
      data-testid="article-dialog"
    >
      <OwnerField adding={!article} />
      <Field name="title">
        <Input data-testid="article-title" />
      </Field>
      <Field name="summary">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
      </Field>
      <Field name="coverfileid">
        <CoverInput resource="operations.article" shown={coverShown} musercode={owner} onPicked={setCover} testId="article-cover" />
      </Field>
      <Field name="content">
        <LazyEditor musercode={owner} />
      </Field>
    </FormDialog>
  );
}

/** The editor's chunk loads when a dialog first shows it. */
function LazyEditor(props: { value?: string; onChange?: (html: string) => void; musercode?: string }) {
  return (
    <Suspense fallback={<Spin />}>
      <ArticleEditor {...props} />
    </Suspense>
  );
}
