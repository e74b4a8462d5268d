import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { f } from '../../components/list';

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

/** The list filter of the same: on, off, or either (left empty). */
export const secondFactorFilter = (t: TFunction) =>
  f.select(
    'secondfactor',
    [
      { value: 1, label: t('common.secondFactorYes') },
      { value: 0, label: t('common.secondFactorNo') },
    ],
    { width: 110 },
  );
