/**
 * Marks of a form without its item text (a built-in scale whose wording is not licensed: only
 * placeholders "Item 1 / Option 1"). The server refuses to give a plan or stage holding one; these
 * say so where staff choose and look at forms (scale library, plans, the give dialog).
 */
import type { CSSProperties } from 'react';
import { Alert, Tag, Tooltip } from 'antd';
import { ExclamationCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The tag beside a form's name, with the reason and the way out on hover. */
export function TextlessTag() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('evaluating.library.textlessTip')}>
      <Tag color="warning" icon={<ExclamationCircleOutlined />} style={{ marginInlineEnd: 0 }} data-testid="textless-tag">
        {t('evaluating.library.textless')}
      </Tag>
    </Tooltip>
  );
}

/** A warning naming the forms without item text (nothing when there are none). */
export function TextlessAlert({ names, style }: { names: string[]; style?: CSSProperties }) {
  const { t } = useTranslation();
  const unique = [...new Set(names)];
  if (!unique.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('evaluating.library.textlessPlan', { names: unique.join(t('evaluating.library.nameSeparator')) })}
      description={t('evaluating.library.textlessHow')}
      style={style}
      data-testid="textless-alert"
    />
  );
}
