import { lazy, Suspense, useState } from 'react';
import { Form, Input, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { articleActions, type ArticleRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { FilePreview, UploadButton } from '../../components/upload';
import { OwnerField, ownerOf } from './DialogFields';

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
  const [cover, setCover] = useState<{ url: string; filename: string } | null>(null);
  const owner = Form.useWatch('musercode', form) ?? article?.musercode;
  const detail = useQuery({
    queryKey: ['as.m.content.getArticle', article?.articleid],
    queryFn: () => call('as.m.content.getArticle', { articleid: article!.articleid }),
    enabled: open && !!article,
  });
  const values: Partial<ArticleForm> | undefined = article
    ? detail.data && {
        title: detail.data.title,
        summary: detail.data.summary,
        coverfileid: detail.data.coverfileid,
        content: detail.data.content,
      }
    : { title: '', summary: '', coverfileid: '', content: '' };
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
          ? call('as.m.content.updateArticle', {
              articleid: article.articleid,
              title: v.title,
              summary: v.summary ?? '',
              coverfileid: v.coverfileid ?? '',
              content: v.content ?? '',
            })
          : call('as.m.content.insertArticle', {
              ...ownerOf(v),
              title: v.title,
              summary: v.summary ?? '',
              coverfileid: v.coverfileid ?? '',
              content: v.content ?? '',
            })
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
        <CoverInput shown={coverShown} musercode={owner} onPicked={setCover} />
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

/** The cover: its picture and a button that uploads another (the field holds the file id). */
function CoverInput({
  onChange,
  shown,
  musercode,
  onPicked,
}: {
  value?: string;
  onChange?: (v: string) => void;
  shown: { url: string; filename: string } | null;
  musercode?: string;
  onPicked: (c: { url: string; filename: string } | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="article-cover-input">
      {shown && <FilePreview file={{ url: shown.url, filename: shown.filename, contenttype: 'image/png' }} height={96} />}
      <UploadButton
        use="image"
        musercode={musercode}
        testId="article-cover"
        onUploaded={(f) => {
          onPicked({ url: f.url, filename: f.filename });
          onChange?.(f.fileid);
        }}
      >
        {t(shown ? 'operations.article.coverChange' : 'operations.article.coverPick')}
      </UploadButton>
    </div>
  );
}
