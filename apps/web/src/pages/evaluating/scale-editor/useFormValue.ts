import { Form } from 'antd';
import type { EditorValues } from './editorState';

/**
 * Watches part of the editor's values, including fields not rendered right now (preserve).
 * A selector rather than a name path: with Form.List fields of the same name mounted in other
 * tabs, a name-path watch was seen answering the whole values object.
 */
export function useFormValue<T>(select: (values: Partial<EditorValues>) => T): T | undefined {
  const form = Form.useFormInstance<EditorValues>();
  return Form.useWatch((values: Partial<EditorValues>) => (values ? select(values) : undefined), { form, preserve: true }) as T | undefined;
}
