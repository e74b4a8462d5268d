/**
 * The two buttons of every editable row list (Form.List): remove this row, add a row. One place
 * for their look (a quiet red bin, a dashed "add") and their accessible name, so the scale
 * editor, the plan editor and later list editors read the same to a screen reader.
 *
 *   <RemoveRowButton onClick={() => remove(f.name)} />
 *   <AddRowButton onClick={() => add(newRow())}>{k('add')}</AddRowButton>
 *
 * RowList is the whole list with both: its rows, a quiet line when there is none, and the add
 * button unless read-only.
 */
import type { ReactNode } from 'react';
import { Button, Form, Typography, type ButtonProps, type FormListFieldData } from 'antd';
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

/** An editable list of rows (Form.List): `row` draws each row (with `key={field.key}`), given how to remove one and how many there are. */
export interface RowListProps {
  name: string | (string | number)[];
  empty?: ReactNode;
  addLabel: ReactNode;
  newRow: () => unknown;
  readOnly?: boolean;
  addTestId?: string;
  row: (field: FormListFieldData, index: number, remove: (index: number) => void, count: number) => ReactNode;
}

export function RowList({ name, empty, addLabel, newRow, readOnly = false, addTestId, row }: RowListProps) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <>
          {fields.length === 0 && empty && <Typography.Text type="secondary">{empty}</Typography.Text>}
          {fields.map((f, i) => row(f, i, remove, fields.length))}
          {!readOnly && (
            <div>
              <AddRowButton onClick={() => add(newRow())} data-testid={addTestId}>
                {addLabel}
              </AddRowButton>
            </div>
          )}
        </>
      )}
    </Form.List>
  );
}
