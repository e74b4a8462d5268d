/**
 * The scale editor: a wide drawer over the scale library with tabs for the basics, the items,
 * the indicators with their bands, the critical-item / validity / mental-state rules, the scoring
 * conventions and the 'try it' panel. It edits a whole definition and saves it with insertForm / updateForm; the
 * server's validator has the last word and its message is shown in the drawer.
 */
import { createContext, memo, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, ConfigProvider, Drawer, Form, Space, Tabs, Tag, type FormInstance } from 'antd';
import { LockOutlined, SaveOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnswerInput, FormDefinition, ScoreResult } from '@xinli/contract';
import { ApiError, call } from '../../../api';
import { ErrorState, LoadingState } from '../../../components/list';
import { useAction } from '../../../components/query';
import { useLocalText } from '../../../lib/options';
import {
  definitionToValues,
  EditorValueError,
  emptyValues,
  firstIncompleteQuestion,
  pageOfQuestion,
  valuesToBody,
  type EditorValues,
} from './editorState';
import BasicsSection from './BasicsSection';
import QuestionsSection from './QuestionsSection';
import IndicatorsSection from './IndicatorsSection';
import RulesSection from './RulesSection';
import ConventionsSection from './ConventionsSection';
import TryItPanel from './TryItPanel';
import './editor.css';

// Memoised: the drawer's own state (its tab, the unsaved mark, a save in flight) must not draw
// every section again; SCL-90's sections hold over a thousand fields.
const Basics = memo(BasicsSection);
const Questions = memo(QuestionsSection);
const Indicators = memo(IndicatorsSection);
const Rules = memo(RulesSection);
const Conventions = memo(ConventionsSection);

export type EditorTab = 'basics' | 'questions' | 'indicators' | 'rules' | 'conventions' | 'tryIt';

export interface ScaleEditorProps {
  open: boolean;
  /** The scale to edit or view; null creates a new one. */
  formcode: string | null;
  initialTab?: EditorTab;
  onClose: () => void;
  /** After a save: the library list refreshes. */
  onSaved?: (formcode: string) => void;
}

/** Which tab holds a field, so a failed check can show it. */
function tabOf(name: (string | number)[]): EditorTab {
  const head = String(name[0]);
  if (head === 'questions') return 'questions';
  if (head === 'indicators') return 'indicators';
  if (head === 'conventions') return 'conventions';
  if (head === 'critical' || head === 'validity' || head.startsWith('mentalState') || head === 'levelToState') return 'rules';
  return 'basics';
}

export default function ScaleEditor({ open, formcode, initialTab = 'basics', onClose, onSaved }: ScaleEditorProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const text = useLocalText();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditorValues>();
  // After creating, the drawer stays open on the new scale (so it can be tried at once).
  const [code, setCode] = useState<string | null>(formcode);
  const [tab, setTab] = useState<EditorTab>(initialTab);
  const [questionPage, setQuestionPage] = useState(1);
  // Unsaved changes: the values differ from what was last loaded or saved (list edits such as
  // moving an item go through setFieldsValue, which onValuesChange does not see).
  // The watch lives in small children (UnsavedTag, the try-it wrapper) so typing does not
  // re-render the whole drawer.
  const [baseline, setBaseline] = useState<string | null>(null);
  const markClean = () => setBaseline(JSON.stringify(form.getFieldsValue(true)));
  const isDirty = () => baseline !== null && JSON.stringify(form.getFieldsValue(true)) !== baseline;
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setCode(formcode);
    setTab(initialTab);
    setQuestionPage(1);
    setBaseline(null);
    setServerError(null);
  }, [open, formcode, initialTab]);

  const loaded = useAction('as.m.assess.forms.getForm', { formcode: code ?? '' }, { enabled: open && !!code });

  // Fill the form when a scale loads (or a fresh one for "new"); not while the user is typing.
  useEffect(() => {
    if (!open) return;
    if (!code) form.setFieldsValue(emptyValues());
    else if (loaded.data && !isDirty()) form.setFieldsValue(definitionToValues(loaded.data.definition));
    else return;
    markClean();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, code, loaded.data]);

  const row = loaded.data?.form;
  const readOnly = !!row?.builtin;
  const savedDefinition: FormDefinition | null = code ? (loaded.data?.definition ?? null) : null;
  const name = row ? (text({ zh: row.formname, en: (loaded.data?.definition.formname.en ?? '') || row.formname }) ?? row.formname) : '';
  const title = !code
    ? t('evaluating.editor.createTitle')
    : readOnly
      ? t('evaluating.editor.viewTitle', { name })
      : t('evaluating.editor.editTitle', { name });

  const save = async () => {
    setServerError(null);
    try {
      await form.validateFields();
    } catch (err) {
      const first = (err as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) setTab(tabOf(first.name));
      return;
    }
    // Only the page of items shown has its fields mounted, so the check above saw no other page:
    // an item left incomplete there is shown, with what it lacks, and nothing is saved.
    const incomplete = firstIncompleteQuestion(form.getFieldsValue(true) as EditorValues);
    if (incomplete !== null) {
      setTab('questions');
      setQuestionPage(pageOfQuestion(incomplete));
      setServerError(t('evaluating.editor.questions.incomplete', { no: incomplete + 1 }));
      return;
    }
    let body;
    try {
      body = valuesToBody(form.getFieldsValue(true) as EditorValues);
    } catch (err) {
      if (err instanceof EditorValueError) {
        form.setFields([{ name: err.path as never, errors: [t('evaluating.editor.indicators.itemsInvalid')] }]);
        setTab(tabOf(err.path));
        return;
      }
      throw err;
    }
    setSaving(true);
    try {
      const saved = code
        ? await call('as.m.assess.forms.updateForm', { formcode: code, revision: loaded.data?.revision ?? 0, definition: body })
        : await call('as.m.assess.forms.insertForm', { definition: body });
      message.success(t('common.saved'));
      markClean();
      setCode(saved.formcode);
      await queryClient.invalidateQueries({ queryKey: ['as.m.assess.forms.getForm', { formcode: saved.formcode }] });
      onSaved?.(saved.formcode);
    } catch (err) {
      // The request client has shown the message briefly; keep the validator's full list in view.
      if (err instanceof ApiError) setServerError(err.message);
    } finally {
      setSaving(false);
    }
  };

  // Esc, the drawer's close button and Close ask before unsaved work is thrown away.
  const confirming = useRef(false);
  const requestClose = () => {
    if (readOnly || !isDirty()) return onClose();
    if (confirming.current) return;
    confirming.current = true;
    modal.confirm({
      title: t('evaluating.editor.discard.title'),
      content: t('evaluating.editor.discard.content'),
      okText: t('evaluating.editor.discard.ok'),
      cancelText: t('evaluating.editor.discard.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'scale-discard-ok' },
      cancelButtonProps: { 'data-testid': 'scale-discard-cancel' },
      // Reset on the answer itself, not after the closing animation (a late reset could let a
      // second prompt open while this one is still shown).
      onOk: () => {
        confirming.current = false;
        onClose();
      },
      onCancel: () => {
        confirming.current = false;
      },
    });
  };

  const preview = (answers: AnswerInput[]) => call('as.m.assess.forms.previewScore', { formcode: code!, answers });

  const extra = (
    <Space>
      <UnsavedTag form={form} baseline={baseline} />
      <Button onClick={requestClose} data-testid="scale-close">
        {t('common.close')}
      </Button>
      {!readOnly && (
        <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save} data-testid="scale-save">
          {t('common.save')}
        </Button>
      )}
    </Space>
  );

  const loading = !!code && loaded.isLoading;
  // A failed refresh in the background leaves the scale being edited on screen.
  const failed = !!code && loaded.isError && !loaded.data;

  return (
    <Drawer
      open={open}
      onClose={requestClose}
      size={1180}
      title={title}
      extra={extra}
      destroyOnHidden
      className="scale-editor"
      data-testid="scale-editor"
      mask={{ closable: false }}
    >
      {loading && <LoadingState />}
      {failed && <ErrorState error={loaded.error} onRetry={() => loaded.refetch()} />}
      {!loading && !failed && (
        <>
          {readOnly && (
            <Alert
              type="info"
              showIcon
              icon={<LockOutlined />}
              title={t('evaluating.editor.builtinNotice', { licence: text(savedDefinition?.licence) })}
              style={{ marginBottom: 12 }}
              data-testid="builtin-notice"
            />
          )}
          {serverError && (
            <Alert
              type="error"
              showIcon
              closable={{ onClose: () => setServerError(null) }}
              title={t('evaluating.editor.saveFailed')}
              description={<div className="server-error">{serverError}</div>}
              style={{ marginBottom: 12 }}
              data-testid="scale-save-error"
            />
          )}
          <EditorTabsContext.Provider
            value={{ tab, setTab, questionPage, setQuestionPage, readOnly, isNew: !code, savedDefinition, baseline, preview }}
          >
            <EditorForm form={form} readOnly={readOnly} />
          </EditorTabsContext.Provider>
        </>
      )}
    </Drawer>
  );
}

/**
 * What the tabs need of the drawer's state. A context, so that a change of it (a tab or page
 * shown, the unsaved mark) draws the tabs and not the form around them: antd's Form gives its
 * fields a new context at each of its renders, and then every one of them is drawn again.
 */
interface EditorTabsState {
  tab: EditorTab;
  setTab: (tab: EditorTab) => void;
  questionPage: number;
  setQuestionPage: (page: number) => void;
  readOnly: boolean;
  isNew: boolean;
  savedDefinition: FormDefinition | null;
  baseline: string | null;
  preview: (answers: AnswerInput[]) => Promise<ScoreResult>;
}
const EditorTabsContext = createContext<EditorTabsState | null>(null);

/** The form, drawn again only when it turns read-only or back (see EditorTabsState). */
const EditorForm = memo(function EditorForm({ form, readOnly }: { form: FormInstance<EditorValues>; readOnly: boolean }) {
  return (
    <Form<EditorValues> form={form} layout="vertical" disabled={readOnly} className="scale-editor-form" scrollToFirstError>
      <EditorTabs />
    </Form>
  );
});

function EditorTabs() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const { tab, setTab, questionPage, setQuestionPage, readOnly, isNew, savedDefinition, baseline, preview } =
    useContext(EditorTabsContext)!;
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setTab(k as EditorTab)}
      items={[
        // The items and the indicators are drawn when first shown (then kept, so what was
        // edited there is checked on save); what was never shown is as loaded, and valid.
        { key: 'basics', label: t('evaluating.editor.tabs.basics'), forceRender: true, children: <Basics isNew={isNew} /> },
        {
          key: 'questions',
          label: t('evaluating.editor.tabs.questions'),
          children: <Questions readOnly={readOnly} page={questionPage} onPage={setQuestionPage} />,
        },
        { key: 'indicators', label: t('evaluating.editor.tabs.indicators'), children: <Indicators readOnly={readOnly} /> },
        { key: 'rules', label: t('evaluating.editor.tabs.rules'), forceRender: true, children: <Rules readOnly={readOnly} /> },
        {
          key: 'conventions',
          label: t('evaluating.editor.tabs.conventions'),
          forceRender: true,
          children: <Conventions readOnly={readOnly} />,
        },
        {
          key: 'tryIt',
          label: t('evaluating.editor.tabs.tryIt'),
          children: (
            // Trying a read-only built-in scale is allowed: lift the form's disabled state here.
            <ConfigProvider componentDisabled={false}>
              <DirtyAware form={form} baseline={baseline}>
                {(dirty) => <TryItPanel definition={savedDefinition} dirty={dirty} score={preview} />}
              </DirtyAware>
            </ConfigProvider>
          ),
        },
      ]}
    />
  );
}

/** Whether the form differs from the baseline (the values last loaded or saved). */
function useDirty(form: FormInstance<EditorValues>, baseline: string | null): boolean {
  const current = Form.useWatch((v: EditorValues) => JSON.stringify(v), { form, preserve: true });
  return baseline !== null && current !== undefined && current !== baseline;
}

function UnsavedTag({ form, baseline }: { form: FormInstance<EditorValues>; baseline: string | null }) {
  const { t } = useTranslation();
  return useDirty(form, baseline) ? <Tag color="orange">{t('evaluating.editor.unsaved')}</Tag> : null;
}

function DirtyAware({
  form,
  baseline,
  children,
}: {
  form: FormInstance<EditorValues>;
  baseline: string | null;
  children: (dirty: boolean) => ReactNode;
}) {
  return <>{children(useDirty(form, baseline))}</>;
}
