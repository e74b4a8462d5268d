/** The fields and cells of the relaxation music and cloud classroom pages (tracks and courses). */
import { InputNumber, Radio, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFullT } from '../../i18n/useT';
import type { FileUse } from '@xinli/contract';
import { Field } from '../../components/form';
import { useApps } from '../../components/pickers';
import { FilePreview, UploadButton } from '../../components/upload';

/** A file as FileField shows it. */
export type ShownFile = { url: string; contenttype: string; filename: string };
type MediaResource = 'operations.music' | 'operations.course';

/**
 * A form field holding a file id of the file store, with the file shown (picture or player) and a
 * button that uploads another; `shown` is what the field's current file looks like.
 */
function FileField({
  onChange,
  use,
  shown,
  onShown,
  musercode,
  label,
  testId,
}: {
  value?: string;
  onChange?: (v: string) => void;
  use: FileUse;
  shown: ShownFile | null;
  onShown: (f: ShownFile) => void;
  musercode?: string;
  label: string;
  testId?: string;
}) {
  return (
    <Space align="center" wrap>
      {shown && <FilePreview file={shown} height={96} />}
      <UploadButton
        use={use}
        musercode={musercode}
        testId={testId}
        onUploaded={(f) => {
          onShown({ url: f.url, contenttype: f.contenttype, filename: f.filename });
          onChange?.(f.fileid);
        }}
      >
        {label}
      </UploadButton>
    </Space>
  );
}

/** A track's or course's saved cover as FileField shows it (the row keeps no content type: any picture type shows). */
export function savedCover(item: { coverurl: string; title: string } | null): ShownFile | null {
  return item?.coverurl ? { url: item.coverurl, contenttype: 'image/png', filename: item.title } : null;
}

/**
 * A track's or course's cover picture, or a track's audio: the file shown and a button that
 * uploads another, labelled 'upload' or 'change' as a file is there or not.
 */
export function MediaFileField({
  resource,
  kind,
  shown,
  onShown,
  musercode,
  testId,
}: ({ resource: MediaResource; kind: 'cover' } | { resource: 'operations.music'; kind: 'audio' }) & {
  shown: ShownFile | null;
  onShown: (f: ShownFile) => void;
  musercode?: string;
  testId?: string;
}) {
  const tr = useFullT();
  return (
    <Field name={`${kind}fileid`}>
      <FileField
        use={kind === 'cover' ? 'image' : 'audio'}
        shown={shown}
        onShown={onShown}
        musercode={musercode}
        label={tr(kind === 'audio' ? `${resource}.audio${shown ? 'Change' : 'Pick'}` : `${resource}.cover${shown ? 'Change' : 'Pick'}`)}
        testId={testId}
      />
    </Field>
  );
}

/** How a track or course is offered: to which population apps, its place in the order, enabled or not. */
export function OfferFields({ resource }: { resource: MediaResource }) {
  const tr = useFullT();
  return (
    <>
      <Field name="appids">
        <AppsField />
      </Field>
      <Field name="sort">
        <InputNumber min={0} max={9999} precision={0} />
      </Field>
      <Field name="enabled">
        <Radio.Group
          options={[
            { value: 1, label: tr(`${resource}.on`) },
            { value: 0, label: tr(`${resource}.off`) },
          ]}
        />
      </Field>
    </>
  );
}

/** The population apps a track or course is offered to (none chosen: all of the institution's). */
export function AppsField(props: { value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  const apps = useApps();
  return (
    <Select
      mode="multiple"
      allowClear
      options={apps.options}
      placeholder={t('operations.media.allApps')}
      style={{ width: '100%' }}
      {...props}
    />
  );
}

/** App names of a row, or "all apps". */
export function useAppNames() {
  const { t } = useTranslation();
  const apps = useApps();
  return (ids: string[]) => (ids.length ? ids.map(apps.nameOf).join('、') : t('operations.media.allApps'));
}

/** A list cell: the item's cover as a thumbnail before its title (goods, tracks, courses). */
export function CoverTitle({ title, coverurl }: { title: string; coverurl?: string | null }) {
  return (
    <span className="article-title-cell">
      {coverurl && <img src={coverurl} alt="" className="file-thumb" />}
      {title}
    </span>
  );
}
