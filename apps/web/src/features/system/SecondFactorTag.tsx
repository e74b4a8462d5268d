import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Beside an account or staff user of a list: it signs in with a confirmed second factor. */
export default function SecondFactorTag({ on, testId }: { on: boolean; testId?: string }) {
  const { t } = useTranslation();
  if (!on) return null;
  return (
    <Tooltip title={t('common.secondFactorOnHint')}>
      <Tag color="green" icon={<SafetyCertificateOutlined />} data-testid={testId}>
        {t('common.secondFactorOn')}
      </Tag>
    </Tooltip>
  );
}
