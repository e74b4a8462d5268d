import { Button } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Move-up (and move-down) icon buttons of a row in an ordered list. */
export default function OrderButtons({
  index,
  count,
  onMove,
  down = true,
  small,
}: {
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  down?: boolean;
  small?: boolean;
}) {
  const { t } = useTranslation();
  const size = small ? 'small' : undefined;
  return (
    <>
      <Button
        type="text"
        size={size}
        icon={<ArrowUpOutlined />}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
        aria-label={t('common.moveUp')}
      />
      {down && (
        <Button
          type="text"
          size={size}
          icon={<ArrowDownOutlined />}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
          aria-label={t('common.moveDown')}
        />
      )}
    </>
  );
}
