import { Col, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import type { NamePath } from 'antd/es/form/interface';

/** An indicator's or convention's code: letters, digits, _ and -, up to 32 (the definition's rule). */
export const CODE = /^[A-Za-z0-9_-]{1,32}$/;

/** The code field that opens an indicator's and a convention's card, with the card's own extra rules. */
export function CodeField({ name, label, required, help, rules = [], testId }: { name: NamePath; label: string; required: string; help: string; rules?: Rule[]; testId: string }) {
  return (
    <Col xs={12} md={4}>
      <Form.Item name={name} label={label} rules={[{ required: true, message: required }, { pattern: CODE, message: help }, ...rules]}>
        <Input maxLength={32} data-testid={testId} />
      </Form.Item>
    </Col>
  );
}
