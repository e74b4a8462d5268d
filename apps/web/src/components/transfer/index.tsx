/**
 * Import and export buttons.
 *
 * - ExportButton: the download of an export action (SPEC §7: form post, the full-screen
 *   "downloading data" overlay with the bytes received, the .xlsx default name, the download
 *   error message); the button is busy until the file is saved.
 * - ImportButton: picks a file, shows progress while it is read and while the server works, and
 *   when the server refuses the file, keeps the dialog open with the reasons and a file of them
 *   to download (one reason a line), so the user can fix the file and try again.
 *
 * Both are hidden when the caller may not call their action.
 */
import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Modal, Progress, Result, Typography, Upload, type ButtonProps } from 'antd';
import { DownloadOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ActionInput, ActionName } from '@xinli/contract';
import { ApiError, download } from '../../api';
import { fileToBase64, MAX_IMPORT_BYTES, saveFile } from '../../lib/files';
import { useAccess } from '../access';

export function ExportButton<A extends ActionName>({
  action,
  input,
  filename,
  children,
  ...button
}: { action: A; input: ActionInput<A>; filename?: string; children?: ReactNode } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [busy, setBusy] = useState(false);
  if (!can(action)) return null;
  // The overlay shows the progress; the button stays busy until the file is saved or refused.
  const run = () => {
    setBusy(true);
    void download(action, input, filename)
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} {...button} onClick={run}>
      {children ?? t('common.transfer.export')}
    </Button>
  );
}

/** The reasons of a refusal, one a line: the server's message split at its separators. */
export function reasonsOf(message: string): string[] {
  return message
    .split(/[；;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

type Phase = { state: 'idle' } | { state: 'reading' | 'sending'; name: string } | { state: 'refused'; name: string; reasons: string[] };

export function ImportButton<T>({
  action,
  accept,
  send,
  onDone,
  maxBytes = MAX_IMPORT_BYTES,
  children,
  ...button
}: {
  /** The import action (for the access check). */
  action: ActionName;
  accept: string;
  /** Calls the import action with the file's base64 content. */
  send: (file: File, content: string) => Promise<T>;
  onDone?: (result: T, file: File) => void;
  maxBytes?: number;
  children?: ReactNode;
} & Omit<ButtonProps, 'onClick' | 'children'>) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { can } = useAccess();
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  if (!can(action)) return null;

  const run = async (file: File) => {
    if (file.size > maxBytes) return void message.error(t('common.transfer.tooLarge', { size: `${Math.round(maxBytes / 1000)} KB` }));
    setPhase({ state: 'reading', name: file.name });
    try {
      const content = await fileToBase64(file);
      setPhase({ state: 'sending', name: file.name });
      const result = await send(file, content);
      setPhase({ state: 'idle' });
      onDone?.(result, file);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      setPhase(err instanceof ApiError ? { state: 'refused', name: file.name, reasons: reasonsOf(text) } : { state: 'idle' });
      if (!(err instanceof ApiError)) message.error(text);
    }
  };
  const busy = phase.state === 'reading' || phase.state === 'sending';
  return (
    <>
      <Upload accept={accept} showUploadList={false} disabled={busy} beforeUpload={(file) => (void run(file), false)}>
        <Button icon={<UploadOutlined />} loading={busy} {...button}>
          {children ?? t('common.transfer.import')}
        </Button>
      </Upload>
      <Modal
        open={phase.state !== 'idle'}
        closable={!busy}
        maskClosable={false}
        footer={phase.state === 'refused' ? undefined : null}
        okText={t('common.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
        onOk={() => setPhase({ state: 'idle' })}
        onCancel={() => setPhase({ state: 'idle' })}
        title={phase.state === 'refused' ? t('common.transfer.refused') : t('common.transfer.import')}
        data-testid="import-dialog"
      >
        {phase.state === 'refused' ? (
          <Result
            status="error"
            subTitle={t('common.transfer.refusedHint')}
            extra={
              <Button
                icon={<FileTextOutlined />}
                onClick={() =>
                  saveFile(new Blob([phase.reasons.join('\r\n')], { type: 'text/plain;charset=utf-8' }), `${phase.name}.errors.txt`)
                }
              >
                {t('common.transfer.errorFile')}
              </Button>
            }
          >
            {phase.reasons.map((r, i) => (
              <Typography.Paragraph key={i} type="danger" style={{ marginBottom: 4 }}>
                {r}
              </Typography.Paragraph>
            ))}
          </Result>
        ) : phase.state !== 'idle' ? (
          <>
            <Typography.Paragraph>{t('common.transfer.importing', { name: phase.name })}</Typography.Paragraph>
            <Progress percent={phase.state === 'reading' ? 30 : 70} status="active" showInfo={false} />
          </>
        ) : null}
      </Modal>
    </>
  );
}
