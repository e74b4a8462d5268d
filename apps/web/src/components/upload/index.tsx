import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DIRECT_UPLOAD_MAX_BYTES, fileLimits, fileTypes, type FileUse, type StoredFile } from '@xinli/contract';
import { call } from '../../api';
import { fileToBase64 } from '../../lib/files';

/**
 * Uploads to the file store (SPEC §7 Upload). A file up to DIRECT_UPLOAD_MAX_BYTES goes in the body
 * of as.m.access.updateToOSS; a larger one to the signed target of updateToOSSPath (the object
 * store itself, or this server), then confirmOSSPath checks it. The server judges the content; the
 * `accept` list and size check here only spare the user a refused upload.
 */
export async function uploadFile(file: File, use: FileUse, musercode?: string): Promise<StoredFile> {
  const owner = musercode ? { musercode } : {};
  if (file.size <= DIRECT_UPLOAD_MAX_BYTES)
    return call('as.m.access.updateToOSS', { ...owner, use, filename: file.name, data: await fileToBase64(file) });
  const { file: pending, upload } = await call('as.m.access.updateToOSSPath', { ...owner, use, filename: file.name, size: file.size });
  // The signature in the URL is the permission: no token travels (the target may be another host).
  const res = await fetch(upload.url, { method: upload.method, headers: upload.headers, body: file });
  if (!res.ok) throw new Error(`upload failed: ${res.status}`);
  return call('as.m.access.confirmOSSPath', { fileid: pending.fileid });
}

const ACCEPT: Record<FileUse, string> = {
  image: '.png,.jpg,.jpeg,.gif,.webp',
  audio: '.mp3,.m4a,.wav,.ogg,.aac',
  video: '.mp4,.webm',
  pdf: '.pdf',
  excel: '.xlsx',
};
export const acceptOf = (use: FileUse) => `${ACCEPT[use]},${fileTypes[use].join(',')}`;

/** A button that picks one file and uploads it for a use; `onUploaded` gets the stored file. */
export function UploadButton({
  use,
  musercode,
  onUploaded,
  children,
  testId,
}: {
  use: FileUse;
  musercode?: string;
  onUploaded: (file: StoredFile) => void;
  children?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Upload
      accept={acceptOf(use)}
      showUploadList={false}
      maxCount={1}
      beforeUpload={(file) => {
        if (file.size > fileLimits[use]) {
          void message.error(t('common.upload.tooLarge', { mb: Math.round(fileLimits[use] / 1024 / 1024) }));
          return Upload.LIST_IGNORE;
        }
        setBusy(true);
        uploadFile(file, use, musercode)
          .then(onUploaded)
          .catch(() => undefined) // the request client showed the server's message
          .finally(() => setBusy(false));
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={busy} data-testid={testId}>
        {children ?? t('common.upload.choose')}
      </Button>
    </Upload>
  );
}

/** A stored file shown as what it is: picture, player, or a link that opens or downloads it. */
export function FilePreview({ file, height = 240 }: { file: Pick<StoredFile, 'url' | 'contenttype' | 'filename'>; height?: number }) {
  const { t } = useTranslation();
  if (file.contenttype.startsWith('image/'))
    return <img src={file.url} alt={file.filename} style={{ maxWidth: '100%', maxHeight: height, objectFit: 'contain' }} />;
  if (file.contenttype.startsWith('audio/')) return <audio controls src={file.url} aria-label={file.filename} style={{ width: '100%' }} />;
  if (file.contenttype.startsWith('video/'))
    return <video controls src={file.url} aria-label={file.filename} style={{ maxWidth: '100%', maxHeight: height }} />;
  return (
    <a href={file.url} target="_blank" rel="noopener noreferrer">
      {file.contenttype === 'application/pdf' ? t('common.upload.openPdf') : t('common.upload.download')}: {file.filename}
    </a>
  );
}
