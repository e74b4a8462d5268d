import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDownloading } from '../../api';

/** SPEC §7: the full-screen 'downloading data, please wait' overlay while a download runs. */
export default function DownloadOverlay() {
  const { t } = useTranslation();
  if (!useDownloading()) return null;
  return (
    <div className="download-overlay" role="alertdialog" aria-busy="true" data-testid="download-overlay">
      <Spin size="large" />
      <span>{t('shell.downloading')}</span>
    </div>
  );
}
