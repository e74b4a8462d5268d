/**
 * The two buttons of every editable row list (Form.List): remove this row, add a row. One place
 * for their look (a quiet red bin, a dashed "add") and their accessible name, so the scale
 * editor, the plan editor and later list editors read the same to a screen reader.
 *
 *   <RemoveRowButton onClick={() => remove(f.name)} />
 *   <AddRowButton onClick={() => add(newRow())}>{k('add')}</AddRowButton>
 */
import type { ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

type RowButtonProps = Pick<ButtonProps, 'onClick' | 'disabled' | 'size' | 'type'> & { 'data-testid'?: string };

export function RemoveRowButton({ type = 'text', ...props }: RowButtonProps) {
  const { t } = useTranslation();
  return <Button type={type} danger={type === 'text'} icon={<DeleteOutlined />} aria-label={t('common.delete')} {...props} />;
}

export function AddRowButton({ children, size = 'small', ...props }: RowButtonProps & { children: ReactNode }) {
  return (
    <Button type="dashed" size={size} icon={<PlusOutlined />} {...props}>
      {children}
    </Button>
  );
}
