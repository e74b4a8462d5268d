/** What the create/edit dialogs of the operations pages (articles, goods, tracks, courses) share. */
import { useFullT } from '../../i18n/useT';
import { Field } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { FilePreview, UploadButton } from '../../components/upload';

/**
 * The institution a new item belongs to: asked only when adding (an item never changes owner) and
 * only of a caller with several institutions; left empty, the item is the caller's own.
 */
export function OwnerField({ adding }: { adding: boolean }) {
  const institutions = useInstitutions();
  if (!adding || !institutions.many) return null;
  return (
    <Field name="musercode">
      <InstitutionSelect allowClear />
    </Field>
  );
}

/** A cover picture as CoverInput shows it. */
export type ShownCover = { url: string; filename: string };

/**
 * The cover of an article or goods: its picture and a button that uploads another. The field
 * holds the file id; `onPicked` gets the uploaded picture, for the dialog to show.
 */
export function CoverInput({
  onChange,
  resource,
  shown,
  musercode,
  onPicked,
  testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  resource: 'operations.article' | 'operations.goods';
  shown: ShownCover | null;
  musercode?: string;
  onPicked: (c: ShownCover) => void;
  testId: string;
}) {
  const tr = useFullT();
  return (
    <div className="article-cover-input">
      {shown && <FilePreview file={{ ...shown, contenttype: 'image/png' }} height={96} />}
      <UploadButton
        use="image"
        musercode={musercode}
        testId={testId}
        onUploaded={(f) => {
          onPicked({ url: f.url, filename: f.filename });
          onChange?.(f.fileid);
        }}
      >
        {tr(`${resource}.${shown ? 'coverChange' : 'coverPick'}`)}
      </UploadButton>
    </div>
  );
}
