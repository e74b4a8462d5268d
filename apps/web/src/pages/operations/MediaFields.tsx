import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileUse } from '@xinli/contract';
import { useApps } from '../../components/pickers';
import { FilePreview, UploadButton } from '../../components/upload';

/**
 * A form field holding a file id of the file store, with the file shown (picture or player) and a
 * button that uploads another; `shown` is what the field's current file looks like.
 */
export function FileField({
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
  shown: { url: string; contenttype: string; filename: string } | null;
  onShown: (f: { url: string; contenttype: string; filename: string }) => void;
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
