/**
 * The scale library (SPEC §2 /evaluating/evaluationScale, code 00003): built-in scales
 * (read-only, with their licence note) and the institution's own; create, edit, copy, delete,
 * enable; JSON import/export and the Excel item template. The editor opens in a drawer.
 */
import { useState } from 'react';
import { App, Button, Input, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import {
  CopyOutlined,
  DownloadOutlined,
  EditOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileExcelOutlined,
  LockOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { scaleActions, FormType, type FormRow } from '@xinli/contract';
import { call, download } from '../../api';
import { f, ListView, useListPage } from '../../components/list';
import { Field, FormDialog } from '../../components/form';
import { useApps } from '../../components/pickers';
import { TextlessTag } from '../../components/textless';
import { ExportButton, ImportButton } from '../../components/transfer';
import ScaleEditor, { type EditorTab } from './scale-editor/ScaleEditor';
import ConventionDialog from './ConventionDialog';
import { Can } from '../../components/access';
import { useT } from '../../i18n/useT';

interface EditorState {
  open: boolean;
  formcode: string | null;
  tab: EditorTab;
}

const LIST = 'as.m.assess.forms.getFormPageList';
const saveTemplate = (formcode?: string) =>
  void download(
    'as.m.assess.forms.exportFormExcelTemplate',
    formcode ? { formcode } : {},
    formcode ? `${formcode}.xlsx` : 'scale-template.xlsx',
  ).catch(() => undefined);

export default function EvaluationScale() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const k = useT('evaluating.library');
  const list = useListPage(LIST, {
    resource: 'evaluating.library',
    filters: [
      f.text('formname', { placeholder: k('namePlaceholder') }),
      f.enumOf('formtype', FormType),
      f.app(),
      f.enabled(),
      f.select(
        'builtin',
        [
          { value: 1, label: k('builtin') },
          { value: 0, label: k('custom') },
        ],
        { label: k('origin'), width: 110 },
      ),
    ],
  });
  const apps = useApps();
  const [editor, setEditor] = useState<EditorState>({ open: false, formcode: null, tab: 'basics' });
  const [copying, setCopying] = useState<FormRow | null>(null);
  const [excelFor, setExcelFor] = useState<FormRow | null>(null);
  const [conventions, setConventions] = useState(false);
  const openEditor = (formcode: string | null, tab: EditorTab = 'basics') => setEditor({ open: true, formcode, tab });
  const { col } = list;

  return (
    <ListView<FormRow>
      list={list}
      add={{ action: 'as.m.assess.forms.insertForm', onClick: () => openEditor(null), label: k('add'), testId: 'scale-add' }}
      actions={
        <>
          <ImportButton
            action="as.m.assess.forms.importFormJson"
            accept=".json,application/json"
            send={(file, content) => call('as.m.assess.forms.importFormJson', { filename: file.name, content })}
            onDone={(saved) => {
              message.success(k('imported', { name: saved.formcode }));
              void list.invalidate();
              openEditor(saved.formcode);
            }}
          >
            {k('importJson')}
          </ImportButton>
          <ExportButton
            action="as.m.assess.forms.exportFormExcelTemplate"
            input={{}}
            filename="scale-template.xlsx"
            icon={<FileExcelOutlined />}
          >
            {k('downloadTemplate')}
          </ExportButton>
          <Can action="as.m.assess.forms.setConvention">
            <Button icon={<SettingOutlined />} onClick={() => setConventions(true)} data-testid="scale-conventions">
              {k('conventions')}
            </Button>
          </Can>
        </>
      }
      rowKey="formcode"
      data-testid="scale-table"
      columns={[
        col.text('formname', {
          width: 200,
          render: (name: string, row) => (
            <Space size={4} wrap>
              <Typography.Link onClick={() => openEditor(row.formcode)}>{name}</Typography.Link>
              {row.builtin && (
                <Tooltip title={row.licence || k('builtinTip')}>
                  <Tag icon={<LockOutlined />} color="default" data-testid="builtin-tag">
                    {k('builtin')}
                  </Tag>
                </Tooltip>
              )}
              {row.textless && <TextlessTag />}
            </Space>
          ),
        }),
        col.text('formcode', { width: 96 }),
        col.enumTag('formtype', FormType, { width: 90 }),
        col.text('appids', {
          title: col.title('appid'),
          width: 130,
          render: (ids: string[]) =>
            ids.length ? (
              <Space size={[4, 4]} wrap>
                {ids.map((id) => (
                  <Tag key={id} color="green" variant="outlined" style={{ marginInlineEnd: 0, whiteSpace: 'normal' }}>
                    {apps.nameOf(id)}
                  </Tag>
                ))}
              </Space>
            ) : (
              '—'
            ),
        }),
        col.text('questioncount', { width: 52, align: 'right' }),
        col.text('version', { width: 52, align: 'center', render: (v: number) => `v${v}` }),
        {
          title: col.title('origin'),
          key: 'origin',
          width: 110,
          render: (_: unknown, row) =>
            row.builtin ? (
              <Typography.Text type="secondary" ellipsis={{ tooltip: row.licence }} style={{ maxWidth: 98 }}>
                {row.licence || k('builtin')}
              </Typography.Text>
            ) : (
              <span>{row.insname || k('custom')}</span>
            ),
        },
        col.enabled({
          action: 'as.m.assess.forms.enableForm',
          input: (row, enabled) => ({ formcode: row.formcode, enabled }),
          name: (row) => row.formname,
          readOnly: (row) => row.builtin,
          offQuestion: (row) => k('disableConfirm', { name: row.formname }),
        }),
        col.time('updatedat'),
        col.actions(
          (row) => [
            row.builtin
              ? { key: 'view', icon: <EyeOutlined />, onClick: () => openEditor(row.formcode) }
              : { key: 'edit', icon: <EditOutlined />, action: 'as.m.assess.forms.updateForm', onClick: () => openEditor(row.formcode) },
            {
              key: 'tryIt',
              label: k('tryIt'),
              icon: <ExperimentOutlined />,
              action: 'as.m.assess.forms.previewScore',
              onClick: () => openEditor(row.formcode, 'tryIt'),
            },
            { key: 'copy', icon: <CopyOutlined />, action: 'as.m.assess.forms.copyForm', more: true, onClick: () => setCopying(row) },
            {
              key: 'json',
              label: k('exportJson'),
              icon: <DownloadOutlined />,
              action: 'as.m.assess.forms.exportFormJson',
              more: true,
              onClick: () =>
                void download('as.m.assess.forms.exportFormJson', { formcode: row.formcode }, `${row.formcode}.json`).catch(
                  () => undefined,
                ),
            },
            {
              key: 'template',
              label: k('downloadTemplate'),
              icon: <FileExcelOutlined />,
              action: 'as.m.assess.forms.exportFormExcelTemplate',
              more: true,
              onClick: () => saveTemplate(row.formcode),
            },
            {
              key: 'excel',
              label: k('importExcel'),
              icon: <UploadOutlined />,
              action: 'as.m.assess.forms.importFormExcel',
              more: true,
              hidden: row.builtin,
              onClick: () => setExcelFor(row),
            },
            col.remove('as.m.assess.forms.deleteForm', { formcode: row.formcode }, row.formname, { more: true, hidden: row.builtin }),
          ],
          { width: 164 },
        ),
      ]}
    >
      <ScaleEditor
        open={editor.open}
        formcode={editor.formcode}
        initialTab={editor.tab}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
        onSaved={() => void list.invalidate()}
      />
      <FormDialog<{ formname: string }>
        open={!!copying}
        title={k('copyTitle')}
        action={scaleActions['as.m.assess.forms.copyForm']}
        resource="evaluating.library"
        layout="vertical"
        values={copying ? { formname: t('common.bracketed', { text: copying.formname, detail: t('common.copy') }) } : undefined}
        success={false}
        onSubmit={async ({ formname }) => {
          const saved = await call('as.m.assess.forms.copyForm', { formcode: copying!.formcode, formname: formname.trim() });
          message.success(k('copied', { name: formname.trim() }));
          return saved.formcode;
        }}
        invalidates={[LIST]}
        onClose={() => setCopying(null)}
        onSaved={(formcode) => {
          setCopying(null);
          openEditor(formcode as string);
        }}
      >
        <Field
          name="formname"
          label={k('copyName')}
          required
          rules={[{ required: true, whitespace: true, message: t('common.enter', { field: k('copyName') }) }]}
        >
          <Input />
        </Field>
      </FormDialog>
      <ConventionDialog open={conventions} onClose={() => setConventions(false)} />
      <ExcelImportDialog row={excelFor} onClose={() => setExcelFor(null)} onDone={() => (setExcelFor(null), void list.invalidate())} />
    </ListView>
  );
}

function ExcelImportDialog({ row, onClose, onDone }: { row: FormRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Modal
      open={!!row}
      title={t('common.labelled', { label: t('evaluating.library.importExcelTitle'), value: row?.formname ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('evaluating.library.importExcelHint')}</Typography.Paragraph>
      {row && (
        <Space>
          <ExportButton
            action="as.m.assess.forms.exportFormExcelTemplate"
            input={{ formcode: row.formcode }}
            filename={`${row.formcode}.xlsx`}
            icon={<FileExcelOutlined />}
          >
            {t('evaluating.library.downloadTemplate')}
          </ExportButton>
          <ImportButton
            type="primary"
            action="as.m.assess.forms.importFormExcel"
            accept=".xlsx"
            send={(file, content) => call('as.m.assess.forms.importFormExcel', { formcode: row.formcode, filename: file.name, content })}
            onDone={(saved) => {
              message.success(t('evaluating.library.imported', { name: `${row.formname} v${saved.version} (${saved.questioncount})` }));
              onDone();
            }}
          >
            {t('evaluating.library.chooseFile')}
          </ImportButton>
        </Space>
      )}
    </Modal>
  );
}
