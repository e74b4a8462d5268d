/**
 * The two-step import of a spreadsheet (persons, a team roster …): download the template, choose
 * a file, see the server's preview (nothing stored yet: every bad row named with row, column and
 * reason, and the error file to fix it by), then commit exactly that, all of it or nothing.
 *
 * The dialog owns the steps, the size limit and the footer; the page says how to preview and
 * commit, and renders the preview's body (`children`). Test ids are `${testid}-template`,
 * `-choose`, `-commit`, `-error-file` and `-problems`; the modal itself is `${testid}-dialog`.
 */
import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Modal, Space, Typography, Upload } from 'antd';
import { DownloadOutlined, FileExcelOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportProblem } from '@xinli/contract';
import { DetailTable } from '../list';
import { fileToBase64, saveBase64 } from '../../lib/files';

/** What every preview answers besides its own figures. */
export interface ImportPreview {
  problems: ImportProblem[];
  problemcount: number;
  errorfile: string;
}
export interface ImportFile {
  filename: string;
  content: string;
}

type Step<P> = { state: 'choose' } | { state: 'checking'; name: string } | { state: 'checked' | 'committing'; name: string; content: string; preview: P };

export function ImportDialog<P extends ImportPreview>({
  title,
  help,
  width = 760,
  maxBytes,
  template,
  preview: check,
  commit: save,
  canCommit = () => true,
  children,
  testid,
  onClose,
}: {
  title: string;
  help: string;
  width?: number;
  maxBytes: number;
  /** Downloads the template. */
  template: () => Promise<unknown>;
  preview: (file: ImportFile) => Promise<P>;
  /** Stores the file; resolves once stored (the dialog then closes). */
  commit: (file: ImportFile) => Promise<void>;
  /** Besides having no problem rows: whether there is anything to import. */
  canCommit?: (preview: P) => boolean;
  /** The preview's body, shown once the server has checked the file. */
  children: (preview: P) => ReactNode;
  testid: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [step, setStep] = useState<Step<P>>({ state: 'choose' });

  const choose = async (file: File) => {
    if (file.size > maxBytes) return void message.error(t('common.transfer.tooLarge', { size: `${Math.round(maxBytes / 1e6)} MB` }));
    setStep({ state: 'checking', name: file.name });
    try {
      const content = await fileToBase64(file);
      setStep({ state: 'checked', name: file.name, content, preview: await check({ filename: file.name, content }) });
    } catch {
      // The request client showed why (not a spreadsheet, too many rows …).
      setStep({ state: 'choose' });
    }
  };
  const commit = async () => {
    if (step.state !== 'checked') return;
    setStep({ ...step, state: 'committing' });
    try {
      await save({ filename: step.name, content: step.content });
      onClose();
    } catch {
      setStep({ ...step, state: 'checked' });
    }
  };

  const name = step.state === 'choose' ? '' : step.name;
  const busy = step.state === 'checking' || step.state === 'committing';
  const preview = step.state === 'checked' || step.state === 'committing' ? step.preview : null;
  const bad = !!preview && preview.problemcount > 0;
  return (
    <Modal
      open
      title={title}
      width={width}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      maskClosable={false}
      data-testid={`${testid}-dialog`}
      footer={
        <Space>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          {bad && preview.errorfile && (
            <Button
              icon={<DownloadOutlined />}
              onClick={() => saveBase64(preview.errorfile, `${name.replace(/\.xlsx?$/i, '')}.errors.xlsx`)}
              data-testid={`${testid}-error-file`}
            >
              {t('common.transfer.problemFile')}
            </Button>
          )}
          <Button
            type="primary"
            disabled={!preview || bad || !canCommit(preview)}
            loading={step.state === 'committing'}
            onClick={() => void commit()}
            data-testid={`${testid}-commit`}
          >
            {t('common.transfer.confirmImport')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button icon={<FileExcelOutlined />} onClick={() => void template().catch(() => undefined)} data-testid={`${testid}-template`}>
          {t('common.transfer.template')}
        </Button>
        <Upload accept=".xlsx" showUploadList={false} disabled={busy} beforeUpload={(file) => (void choose(file), false)}>
          <Button type="primary" ghost icon={<UploadOutlined />} loading={step.state === 'checking'} data-testid={`${testid}-choose`}>
            {step.state === 'checking' ? t('common.transfer.checking') : t('common.transfer.chooseFile')}
          </Button>
        </Upload>
        {name && <Typography.Text>{name}</Typography.Text>}
      </Space>
      {preview && children(preview)}
    </Modal>
  );
}

/** The bad rows of a preview: row, column, reason. */
export function ImportProblems({ problems, testid }: { problems: ImportProblem[]; testid: string }) {
  const { t } = useTranslation();
  return (
    <DetailTable<ImportProblem>
      bordered
      rowKey={(p) => `${p.row}-${p.column}-${p.reason}`}
      dataSource={problems}
      pageSize={10}
      columns={[
        { title: t('common.transfer.row'), dataIndex: 'row', key: 'row', width: 70 },
        { title: t('common.transfer.column'), dataIndex: 'column', key: 'column', width: 140 },
        { title: t('common.transfer.reason'), dataIndex: 'reason', key: 'reason' },
      ]}
      data-testid={`${testid}-problems`}
    />
  );
}
