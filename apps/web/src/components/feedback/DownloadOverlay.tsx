import { Progress, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDownloading, useDownloadProgress } from '../../api';

const kb = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * SPEC §7: the full-screen 'downloading data, please wait' overlay while a download runs. While
 * the server prepares the file it spins; once bytes arrive it shows how many (and the share of
 * them when the size is known), so a long export of many reports visibly moves.
 */
export default function DownloadOverlay() {
  const { t } = useTranslation();
  const downloading = useDownloading();
  const progress = useDownloadProgress();
  if (!downloading) return null;
  const percent = progress?.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : null;
  return (
    <div className="download-overlay" role="alertdialog" aria-busy="true" data-testid="download-overlay">
      {percent !== null ? <Progress type="circle" percent={percent} size={64} data-testid="download-progress" /> : <Spin size="large" />}
      <span>{t('shell.downloading')}</span>
      {progress && progress.received > 0 && (
        <span data-testid="download-received">{progress.total ? `${kb(progress.received)} / ${kb(progress.total)}` : kb(progress.received)}</span>
      )}
    </div>
  );
}
