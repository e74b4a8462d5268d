/**
 * The create/edit dialog: Modal, form, validation from the action's zod input, saving state,
 * success message, invalidation of the lists it changes, and the dialog stays open (with the
 * server's message shown by the request client) when the call is refused.
 *
 *   <FormDialog<RoleForm> open={…} title={…} action={systemActions['as.m.system.role.insertRole']} resource="authority.role"
 *       values={role ? {...role} : { enabled: 1 }} onSubmit={(v) => call(…)} invalidates={[list.key]} onClose={close} onSaved={close}>
 *     <Field name="rolename"><Input data-testid="role-name" /></Field>   // label system.role.rolename, required, max 30
 *   </FormDialog>
 *
 * A dialog whose values come from the action's input gives `record` instead of `values` (the row
 * to edit, or null for a new one, with the page's own starting values in `defaults`): it opens with
 * the row's fields of the input, or the input's defaults and empty values, and its `onSubmit` gets
 * the form values shaped by the input (schema-values.ts), so each field is named once, in its `Field`:
 *
 *   <FormDialog<DeptForm> open={…} action={systemActions['as.m.system.dept.insertDept']} resource="organization.dept"
 *       record={dept} defaults={{ parentid }} onSubmit={(v) => (dept ? call(update, { deptid: dept.deptid, ...v }) : call(insert, v))} …>
 *
 * A dialog that reads its values first (an account's apps, an institution's settings) gives them
 * in `values` and the read's state in `load`: its fields are shown, and OK enabled, once the read is
 * in the form, so nothing typed or clicked before is undone by it.
 *
 * Field rules come from the schema of the field in `action`'s input: a too-long name, a bad
 * pattern, a number out of range is refused before the server is called. Extra rules (password
 * confirmation) are added with `rules`. `action` is the action itself, taken from its domain's
 * table (`systemActions`, `personActions`, … of @xinli/contract), not its name: so a page's chunk
 * holds only its own domain's schemas, never the whole catalogue.
 */
import {
  cloneElement,
  createContext,
  isValidElement,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import {
  App as AntApp,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Spin,
  Switch,
  TreeSelect,
  type FormInstance,
  type FormItemProps,
  type FormProps,
  type ModalProps,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActionDef, ActionName } from '@xinli/contract';
import type { z } from 'zod';
import { ApiError } from '../../api';
import i18n from '../../i18n';
import { labelOf, messageOf, type Resource } from '../../lib/labels';
import { describe, fieldOf, problemOf, type Problem } from './zod-rules';
import { tFull } from '../../i18n/useT';
import type { Area, KeyOf } from '../../i18n/keys';
import { newValues, recordValues, shapeValues } from './schema-values';
import { ErrorState, LoadingState } from '../list/states';

interface FieldsContext {
  schema?: z.ZodType;
  resource?: Resource;
}
const FieldsCtx = createContext<FieldsContext>({});

/** Gives the `Field`s inside a form (a dialog's, or any other) their action and label resource. */
export function ContractFields({ action, resource, children }: { action?: ActionDef; resource?: Resource; children: ReactNode }) {
  const value = useMemo(() => ({ schema: action?.input, resource }), [action, resource]);
  return <FieldsCtx.Provider value={value}>{children}</FieldsCtx.Provider>;
}

/**
 * A rule's message in the page's words: the contract's own sentence (the person-name rule), the
 * resource's format message of the field (`authority.role.rolekeyFormat`) when it has one, "choose"
 * for a missing choice, else the common rule's message.
 */
export function problemText(problem: Problem, label: string, o: { resource?: Resource; field?: string; choice?: boolean } = {}): string {
  const values = { field: label, ...problem.values };
  switch (problem.key) {
    case 'sentence':
      return problem.sentence ? (i18n.language === 'en-US' ? problem.sentence.en : problem.sentence.zh) : tFull('common.rule.format', values);
    case 'format':
    case 'invalid':
      return o.field ? messageOf(o.resource, `${o.field}Format`, `common.rule.${problem.key}`, values) : tFull(`common.rule.${problem.key}`, values);
    case 'required':
      return tFull(o.choice ? 'common.rule.choose' : 'common.rule.required', values);
    default:
      return tFull(`common.rule.${problem.key}`, values);
  }
}

/**
 * The rules of one field of the action's input, with messages in the page's words. A missing
 * choice (`choice`: a select, radio group, date …) asks to choose, a missing typed value to enter.
 */
export function contractRules(
  schema: z.ZodType | undefined,
  name: FormItemProps['name'],
  label: string,
  resource?: Resource,
  choice = false,
): { rules: Rule[]; required: boolean; maxLength?: number; flag: boolean } {
  const path = name === undefined ? [] : Array.isArray(name) ? name : [name];
  const field = schema && path.length ? fieldOf(schema, path as (string | number)[]) : undefined;
  if (!field) return { rules: [], required: false, flag: false };
  const spec = describe(field);
  const last = String(path[path.length - 1]);
  const rule: Rule = {
    validator: async (_, value) => {
      const problem = problemOf(field, value);
      if (problem) throw new Error(problemText(problem, label, { resource, field: last, choice }));
    },
  };
  const flag = field.safeParse(1).success && !field.safeParse(true).success;
  return { rules: [rule], required: spec.required, maxLength: spec.kind === 'string' ? spec.maxLength : undefined, flag };
}

/**
 * A switch is checked or not; a contract flag is 0 or 1. The form holds what the action takes,
 * so the contract's own rule passes and the value is sent as is.
 */
function switchProps(flag: boolean): Partial<FormItemProps> {
  return flag
    ? { valuePropName: 'checked', getValueProps: (v: unknown) => ({ checked: v === 1 }), normalize: (checked: boolean) => (checked ? 1 : 0) }
    : { valuePropName: 'checked' };
}

const TEXT_INPUTS = new Set<unknown>([Input, Input.TextArea, Input.Password]);
/** Inputs where a value is typed; every other control (select, radio, date, picker …) is a choice. */
const TYPED_INPUTS = new Set<unknown>([...TEXT_INPUTS, InputNumber, Input.Search]);
const CHOICE_INPUTS = new Set<unknown>([Select, TreeSelect]);

export interface FieldProps extends FormItemProps {
  /** The field of the action's input (also the form value's name). */
  name: string | number | (string | number)[];
  children: ReactNode;
  /** In a form laid out on a grid (`<Row>`): the columns of 24 the field takes. */
  span?: number;
}

/**
 * A Form.Item whose label, required mark and rules come from the resource and the action: a
 * text input child gets an "enter …" placeholder, a select a "choose …" one. The schema's length
 * limit is checked with a message, never set as the input's maxLength (which cuts a paste
 * silently). One message at a time per field: the first rule that fails (so a page's own
 * required rule on top of the contract's does not show a second one).
 */
export function Field({ name, label, rules = [], required, span, children, ...rest }: FieldProps) {
  const { t } = useTranslation();
  const { schema, resource } = useContext(FieldsCtx);
  const last = String(Array.isArray(name) ? name[name.length - 1] : name);
  const text = label ?? labelOf(resource, last);
  const choice = isValidElement(children) && !TYPED_INPUTS.has(children.type);
  const derived = contractRules(schema, name, typeof text === 'string' ? text : last, resource, choice);
  const named = typeof text === 'string' ? text : undefined;
  let child = children;
  if (isValidElement(children)) {
    const props = children.props as { placeholder?: string };
    if (TEXT_INPUTS.has(children.type))
      child = cloneElement(children as ReactElement<{ placeholder?: string }>, {
        placeholder: props.placeholder ?? (named && t('common.enter', { field: named })),
      });
    else if (CHOICE_INPUTS.has(children.type) && named)
      child = cloneElement(children as ReactElement<{ placeholder?: string }>, {
        placeholder: props.placeholder ?? t('common.choose', { field: named }),
      });
  }
  const item = (
    <Form.Item
      name={name}
      label={text}
      required={required ?? derived.required}
      rules={[...derived.rules, ...rules]}
      validateFirst
      {...(isValidElement(children) && children.type === Switch ? switchProps(derived.flag) : {})}
      {...rest}
    >
      {child}
    </Form.Item>
  );
  return span ? <Col span={span}>{item}</Col> : item;
}

/** The areas whose add dialogs the kit titles (`addTitle`), and those whose edit dialogs too (`editTitle`). */
type AddTitledArea = { [A in Area]: 'addTitle' extends KeyOf<A> ? A : never }[Area];
export type TitledArea = { [A in AddTitledArea]: 'editTitle' extends KeyOf<A> ? A : never }[AddTitledArea];

/**
 * A dialog names its title, or takes its resource's `editTitle` / `addTitle`: a resource without
 * them (an add-only dialog's without `editTitle`) is a type error.
 */
export type FormDialogProps<V> = FormDialogBase<V> &
  (
    | { title: ReactNode }
    | { title?: undefined; resource: TitledArea }
    | { title?: undefined; resource: AddTitledArea; editing?: false; record?: undefined }
  );

interface FormDialogBase<V> {
  open: boolean;
  /** An edit (not a create) dialog: picks the default title. Default: a `record` is given. */
  editing?: boolean;
  /** The action whose input schema gives the rules (the create action of a create/edit dialog), from its domain's table. */
  action?: ActionDef;
  /** The label resource: `authority.role` labels field `rolename` with `authority.role.rolename`. */
  resource?: Resource;
  form?: FormInstance<V>;
  /**
   * Values set each time the dialog opens (after a reset); with `load`, the values of what it
   * read, set when the read arrives (and again when a read gives other values).
   */
  values?: Partial<V>;
  /**
   * Values from the action's input instead of `values`: the row to edit (its fields of the input
   * and of `defaults`; one read afresh fills the form when it arrives), or null for a new one (the
   * input's defaults and empty values, under `defaults`). The submitted values are then shaped by
   * the input too: a cleared field is sent as its default or empty value.
   */
  record?: object | null;
  /**
   * A new record's own starting values (a parent, an institution); undefined ones leave the input's
   * default. A field the form holds and the input does not (a region path for three region codes)
   * is named here too, and an edited record gives it as well.
   */
  defaults?: Partial<V>;
  /** Calls the server; a rejection keeps the dialog open (the request client showed the message). */
  onSubmit: (values: V) => Promise<unknown>;
  /** List keys (action names) to refresh after a save. */
  invalidates?: ActionName[];
  /** The success message; false for none. Default common.saved. */
  success?: string | false;
  onClose: () => void;
  /** After a successful save; closes the dialog by default. */
  onSaved?: (result: unknown) => void;
  width?: number;
  layout?: FormProps['layout'];
  labelWidth?: number;
  okDisabled?: boolean;
  /**
   * What the dialog reads first: a spinner instead of the fields until it is here and in the
   * form; its error (with retry) instead of the form, and no OK.
   */
  load?: { error: unknown; loading: boolean; retry: () => void };
  /** Shown above the fields, also while they load: a picker of what is read (an institution). */
  header?: ReactNode;
  modalProps?: Partial<ModalProps>;
  formProps?: Partial<FormProps<V>>;
  'data-testid'?: string;
  children: ReactNode;
}

export default function FormDialog<V extends object>({
  open,
  title,
  editing,
  action,
  resource,
  form: given,
  values: givenValues,
  record,
  defaults,
  onSubmit,
  invalidates = [],
  success,
  onClose,
  onSaved,
  width = 600,
  layout = 'horizontal',
  labelWidth = 110,
  okDisabled,
  load,
  header,
  modalProps,
  formProps,
  children,
  ...rest
}: FormDialogProps<V>) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [own] = Form.useForm<V>();
  const form = given ?? own;
  const [saving, setSaving] = useState(false);
  const schema = record === undefined ? undefined : action?.input;
  // The form's own fields (a region path, a category path) are named in `defaults`: an edited record gives them too.
  const values = !schema ? givenValues : record ? recordValues<V>(schema, record, Object.keys(defaults ?? {})) : newValues<V>(schema, defaults);
  const latest = useRef(values);
  latest.current = values;
  // A record read afresh after the dialog opened (or found missing: null, a new one), or the values
  // of what it loaded, go in when they are here; by content, so an equal read again does not undo
  // what the user typed.
  const arrived = schema ? (record === null ? 'new' : JSON.stringify(values)) : load && !load.loading ? JSON.stringify(values ?? null) : undefined;
  // The arrival last put in the form. Until the present one is in, a loading dialog shows no
  // field: a click or a keystroke on one would be undone by the values going in after it.
  const [filled, setFilled] = useState<string>();

  useEffect(() => {
    if (!open) {
      setFilled(undefined);
      return;
    }
    form.resetFields();
    if (latest.current) form.setFieldsValue(latest.current as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);
  useEffect(() => {
    if (!open || arrived === undefined) return;
    if (latest.current) form.setFieldsValue(latest.current as Parameters<typeof form.setFieldsValue>[0]);
    setFilled(arrived);
  }, [open, arrived, form]);
  // A new record's values are in from the start; a read's once it is here and filled.
  const waiting = !!load && arrived !== 'new' && (arrived === undefined ? load.loading : filled !== arrived);

  async function submit() {
    let v: V;
    try {
      v = await form.validateFields();
    } catch {
      // The form shows what is wrong; nothing to send (and no unhandled rejection).
      return;
    }
    setSaving(true);
    try {
      const result = await onSubmit(schema ? shapeValues(schema, v) : v);
      if (success !== false) message.success(success ?? t('common.saved'));
      await Promise.all(invalidates.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
      (onSaved ?? onClose)(result);
    } catch (err) {
      // ApiErrors were shown by the request client; the dialog stays open to fix the input.
      if (!(err instanceof ApiError)) message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  const horizontal = layout === 'horizontal';
  return (
    <Modal
      open={open}
      // Without a title the props' type made the resource a titled area.
      title={title ?? tFull(`${resource as TitledArea}.${(editing ?? !!record) ? 'editTitle' : 'addTitle'}`)}
      width={width}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: okDisabled || waiting || !!load?.error }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
      {...modalProps}
      {...rest}
    >
      <ContractFields action={action} resource={resource}>
        <Form<V>
          form={form}
          layout={layout}
          labelCol={horizontal ? { flex: `${labelWidth}px` } : undefined}
          // A basis of 0: a long help text or chosen option never pushes the control below its label.
          wrapperCol={horizontal ? { flex: '1 1 0', style: { minWidth: 0 } } : undefined}
          labelWrap
          colon={false}
          style={{ marginTop: 16 }}
          {...formProps}
        >
          {header}
          {load?.error ? (
            <ErrorState error={load.error} onRetry={load.retry} />
          ) : waiting ? (
            <LoadingState />
          ) : load ? (
            // A new record's options (roles, …) may still be loading.
            <Spin spinning={load.loading}>{children}</Spin>
          ) : (
            children
          )}
        </Form>
      </ContractFields>
    </Modal>
  );
}
