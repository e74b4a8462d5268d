import { lazy, Suspense, useState } from 'react';
import { Form, Input, Spin } from 'antd';
import { articleActions, type ArticleRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { CoverInput, OwnerField, ownerOf, type ShownCover } from './DialogFields';

const ArticleEditor = lazy(() => import('./ArticleEditor'));

interface ArticleForm {
  musercode?: string;
  title: string;
  summary: string;
  coverfileid: string;
  content: string;
}

/** Write or change an article: title, summary, cover picture and the rich-text body. */
export default function ArticleDialog({ open, article, onClose }: { open: boolean; article: ArticleRow | null; onClose: () => void }) {
  const [form] = Form.useForm<ArticleForm>();
  const [cover, setCover] = useState<ShownCover | null>(null);
  const owner = Form.useWatch('musercode', form) ?? article?.musercode;
  const detail = useAction('as.m.content.getArticle', { articleid: article?.articleid ?? '' }, { enabled: open && !!article });
  const values: Partial<ArticleForm> | undefined = article
    ? detail.data && {
        title: detail.data.title,
        summary: detail.data.summary,
        coverfileid: detail.data.coverfileid,
        content: detail.data.content,
      }
    : { title: '', summary: '', coverfileid: '', content: '' };
  const body = (v: ArticleForm) => ({
    title: v.title,
    summary: v.summary ?? '',
    coverfileid: v.coverfileid ?? '',
    content: v.content ?? '',
  });
  const coverShown = cover ?? (article && detail.data?.coverurl ? { url: detail.data.coverurl, filename: detail.data.title } : null);
  return (
    <FormDialog<ArticleForm>
      open={open}
      editing={!!article}
      action={articleActions[article ? 'as.m.content.updateArticle' : 'as.m.content.insertArticle']}
      resource="operations.article"
      form={form}
      values={values}
      load={article ? { loading: detail.isLoading, error: detail.error, retry: () => void detail.refetch() } : undefined}
      width={860}
      invalidates={['as.m.content.getArticlePage', 'as.m.access.getFilePage']}
      onSubmit={(v) =>
        article
          ? call('as.m.content.updateArticle', { articleid: article.articleid, ...body(v) })
          : call('as.m.content.insertArticle', { ...ownerOf(v), ...body(v) })
      }
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
