import { useEffect, useState } from 'react';
import { Alert, App as AntApp, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, FileExcelOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ImportProblem, ImportTemplate } from '@xinli/contract';
import { call, download } from '../../api';
import { fileToBase64, saveBase64 } from '../../lib/files';

/** The import action of each template (README "Person imports" says which population each serves). */
export const IMPORT_ACTIONS = {
  ZLB: 'as.m.cuser.importZLBCUserFromExcel',
  ZNB: 'as.m.cuser.importZNBCUserFromExcel',
  ZAB: 'as.m.cuser.importZABCUserFromExcel',
} as const;

/** Rosters of up to 50,000 rows: about 12 MB of .xlsx. */
const MAX_ROSTER_BYTES = 12_000_000;

type Step =
  | { state: 'choose' }
  | { state: 'checking'; name: string }
  | { state: 'checked'; name: string; content: string; total: number; problems: ImportProblem[]; problemcount: number; errorfile: string }
  | { state: 'committing'; name: string };

/**
 * Import persons from one template: the template download, then a preview that checks every
 * row and names each bad one (row, column, reason), then the commit (all rows or none). A
 * refused file's problems can be downloaded as a file to fix it by.
 */
export default function PersonImportDialog({
  template,
  title,
  musercode,
  onClose,
}: {
  template: ImportTemplate | null;
  title: string;
  musercode?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const k = (key: string, o?: Record<string, unknown>) => t(`archives.person.${key}`, o);
  const [step, setStep] = useState<Step>({ state: 'choose' });
  useEffect(() => {
    if (template) setStep({ state: 'choose' });
  }, [template]);
  if (!template) return null;
  const action = IMPORT_ACTIONS[template];

  const check = async (file: File) => {
    if (file.size > MAX_ROSTER_BYTES) return void message.error(t('common.transfer.tooLarge', { size: '12 MB' }));
    setStep({ state: 'checking', name: file.name });
    try {
      const content = await fileToBase64(file);
      const r = await call(action, { mode: 'preview', filename: file.name, content, musercode });
      setStep({
        state: 'checked',
        name: file.name,
        content,
        total: r.total,
        problems: r.problems,
        problemcount: r.problemcount,
        errorfile: r.errorfile,
      });
    } catch {
      // The request client showed the reason (not a spreadsheet, too many rows ...).
      setStep({ state: 'choose' });
    }
  };
  const commit = async () => {
    if (step.state !== 'checked') return;
    const { name, content } = step;
    setStep({ state: 'committing', name });
    try {
      const r = await call(action, { mode: 'commit', filename: name, content, musercode });
      message.success(k('imported', { count: r.imported }));
      await queryClient.invalidateQueries({ queryKey: ['as.m.cuser.getCUserPageList'] });
      await queryClient.invalidateQueries({ queryKey: ['as.m.cuser.getCUserArchivePageList'] });
      onClose();
    } catch {
      setStep({ ...step });
    }
  };
  // The server writes the problems as an .xlsx (row, column, reason) with the preview.
  const errorFile = () => {
    if (step.state !== 'checked' || !step.errorfile) return;
    saveBase64(step.errorfile, `${step.name.replace(/\.xlsx?$/i, '')}.errors.xlsx`);
  };
  const busy = step.state === 'checking' || step.state === 'committing';
  const bad = step.state === 'checked' && step.problemcount > 0;
  return (
    <Modal
      open
      title={title}
      width={720}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      maskClosable={false}
      data-testid="person-import"
      footer={
        <Space>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          {bad && step.errorfile && (
            <Button icon={<DownloadOutlined />} onClick={errorFile} data-testid="import-error-file">
              {k('errorFile')}
            </Button>
          )}
          <Button
            type="primary"
            disabled={step.state !== 'checked' || bad || step.total === 0}
            loading={step.state === 'committing'}
            onClick={() => void commit()}
            data-testid="import-commit"
          >
            {k('commit')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{k('importHelp')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button
          icon={<FileExcelOutlined />}
          onClick={() => void download('as.m.cuser.getCUserImportTemplate', { template }, `${title}.xlsx`).catch(() => undefined)}
          data-testid="import-template"
        >
          {k('template')}
        </Button>
        <Upload accept=".xlsx" showUploadList={false} disabled={busy} beforeUpload={(file) => (void check(file), false)}>
          <Button type="primary" ghost icon={<UploadOutlined />} loading={step.state === 'checking'} data-testid="import-choose">
            {step.state === 'checking' ? k('checking') : k('chooseFile')}
          </Button>
        </Upload>
        {step.state !== 'choose' && <Typography.Text>{step.name}</Typography.Text>}
      </Space>
      {step.state === 'checked' &&
        (bad ? (
          <>
            <Alert
              type="error"
              showIcon
              title={k('previewBad', { count: step.total, bad: step.problemcount })}
              style={{ marginBottom: 8 }}
            />
            <Table<ImportProblem>
              size="small"
              bordered
              rowKey={(p, i) => `${p.row}-${p.column}-${i}`}
              dataSource={step.problems}
              pagination={step.problems.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              data-testid="import-problems"
              columns={[
                { title: k('row'), dataIndex: 'row', key: 'row', width: 70 },
                { title: k('column'), dataIndex: 'column', key: 'column', width: 140 },
                { title: k('reason'), dataIndex: 'reason', key: 'reason' },
              ]}
            />
          </>
        ) : (
          <Alert type="success" showIcon title={k('previewOk', { count: step.total })} data-testid="import-ok" />
        ))}
    </Modal>
  );
}
