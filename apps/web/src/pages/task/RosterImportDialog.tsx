import { useState } from 'react';
import { Alert, App as AntApp, Button, Modal, Segmented, Space, Tag, Typography, Upload } from 'antd';
import { DownloadOutlined, FileExcelOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Gender, ROSTER_MAX_BASE64, type ActionOutput, type ImportProblem, type TeamRow } from '@xinli/contract';
import { call, download } from '../../api';
import { DetailTable } from '../../components/list';
import { fileToBase64, saveBase64 } from '../../lib/files';
import { useEnumOptions } from '../../lib/options';
import { ROSTER_KEYS } from './task-ui';

const IMPORT = 'as.m.assess.importAssessTeamRoster';
type Preview = ActionOutput<typeof IMPORT>;
type Change = Preview['changes'][number];
type View = 'new' | 'changed' | 'leaving' | 'errors';
type Step = { state: 'choose' } | { state: 'checking'; name: string } | { state: 'checked' | 'committing'; name: string; content: string; preview: Preview };

/** What a file of this size becomes in the JSON body (base64, 4 characters per 3 bytes). */
const MAX_BYTES = Math.floor((ROSTER_MAX_BASE64 * 3) / 4);
const CHANGE_COLOURS = { new: 'success', changed: 'processing', leaving: 'warning' } as const;

/**
 * A team's roster from a spreadsheet in two steps: the preview (nothing stored) shows the
 * difference against the current roster (new, changed, leaving) and every bad row with the
 * error file to fix it by; confirming applies exactly that difference, all of it or nothing.
 */
export default function RosterImportDialog({ team, onClose }: { team: TeamRow; onClose: () => void }) {
  const { t } = useTranslation();
  const k = (key: string, o?: Record<string, unknown>) => t(`task.team.${key}`, o);
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const genders = useEnumOptions(Gender);
  const genderOf = (v: string) => genders.find((g) => g.value === v)?.label ?? v;
  const [step, setStep] = useState<Step>({ state: 'choose' });
  const [view, setView] = useState<View>('new');

  const check = async (file: File) => {
    if (file.size > MAX_BYTES) return void message.error(t('common.transfer.tooLarge', { size: `${Math.round(MAX_BYTES / 1e6)} MB` }));
    setStep({ state: 'checking', name: file.name });
    try {
      const content = await fileToBase64(file);
      const preview = await call(IMPORT, { teamid: team.teamid, mode: 'preview', filename: file.name, content });
      setStep({ state: 'checked', name: file.name, content, preview });
      setView(preview.problemcount ? 'errors' : preview.added ? 'new' : preview.changed ? 'changed' : 'leaving');
    } catch {
      // The request client showed why (not a spreadsheet, too many rows …).
      setStep({ state: 'choose' });
    }
  };
  const commit = async () => {
    if (step.state !== 'checked') return;
    setStep({ ...step, state: 'committing' });
    try {
      const r = await call(IMPORT, { teamid: team.teamid, mode: 'commit', filename: step.name, content: step.content });
      message.success(k('committed', { added: r.added, changed: r.changed, leaving: r.leaving }));
      await Promise.all(ROSTER_KEYS.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
      onClose();
    } catch {
      setStep({ ...step, state: 'checked' });
    }
  };

  const fileName = step.state === 'choose' ? '' : step.name;
  const busy = step.state === 'checking' || step.state === 'committing';
  const preview = step.state === 'checked' || step.state === 'committing' ? step.preview : null;
  const bad = !!preview && preview.problemcount > 0;
  const nothing = !!preview && !bad && preview.added + preview.changed + preview.leaving === 0;
  const counts: Record<View, number> = {
    new: preview?.added ?? 0,
    changed: preview?.changed ?? 0,
    leaving: preview?.leaving ?? 0,
    errors: preview?.problemcount ?? 0,
  };
  const rows = preview?.changes.filter((c) => c.change === view) ?? [];

  return (
    <Modal
      open
      title={k('importTitle', { name: team.teamname })}
      width={800}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      maskClosable={false}
      data-testid="roster-import-dialog"
      footer={
        <Space>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          {bad && preview.errorfile && (
            <Button
              icon={<DownloadOutlined />}
              onClick={() => saveBase64(preview.errorfile, `${fileName.replace(/\.xlsx?$/i, '')}.errors.xlsx`)}
              data-testid="roster-error-file"
            >
              {k('errorFile')}
            </Button>
          )}
          <Button
            type="primary"
            disabled={!preview || bad || nothing}
            loading={step.state === 'committing'}
            onClick={() => void commit()}
            data-testid="roster-commit"
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
          onClick={() => void download('as.m.assess.getAssessTeamRosterTemplate', {}, `${k('import')}.xlsx`).catch(() => undefined)}
          data-testid="roster-template"
        >
          {k('template')}
        </Button>
        <Upload accept=".xlsx" showUploadList={false} disabled={busy} beforeUpload={(file) => (void check(file), false)}>
          <Button type="primary" ghost icon={<UploadOutlined />} loading={step.state === 'checking'} data-testid="roster-choose">
            {step.state === 'checking' ? k('checking') : k('chooseFile')}
          </Button>
        </Upload>
        {fileName && <Typography.Text>{fileName}</Typography.Text>}
      </Space>
      {preview && (
        <Space orientation="vertical" size={8} style={{ width: '100%' }} data-testid="roster-preview">
          {bad ? (
            <Alert type="error" showIcon title={k('previewBad', { count: preview.problemcount })} />
          ) : nothing ? (
            <Alert type="info" showIcon title={k('previewSame')} />
          ) : (
            <Alert
              type={preview.leaving ? 'warning' : 'success'}
              showIcon
              title={k('previewSummary', { ...preview })}
              description={preview.leaving ? k('leavingWarn', { count: preview.leaving }) : undefined}
              data-testid="roster-summary"
            />
          )}
          <Segmented<View>
            value={view}
            onChange={setView}
            options={(['new', 'changed', 'leaving', 'errors'] as const).map((v) => ({
              value: v,
              label: `${k(`changeKinds.${v}`)} ${counts[v]}`,
            }))}
            data-testid="roster-views"
          />
          {view === 'errors' ? (
            <DetailTable<ImportProblem>
              bordered
              rowKey={(p) => `${p.row}-${p.column}-${p.reason}`}
              dataSource={preview.problems}
              pageSize={10}
              columns={[
                { title: k('row'), dataIndex: 'row', key: 'row', width: 70 },
                { title: k('column'), dataIndex: 'column', key: 'column', width: 140 },
                { title: k('reason'), dataIndex: 'reason', key: 'reason' },
              ]}
              data-testid="roster-problems"
            />
          ) : (
            <DetailTable<Change>
              bordered
              rowKey={(c) => `${c.change}-${c.studentno}-${c.row}`}
              dataSource={rows}
              pageSize={10}
              columns={[
                { title: k('change'), key: 'change', width: 80, render: (_, c) => <Tag color={CHANGE_COLOURS[c.change]}>{k(`changeKinds.${c.change}`)}</Tag> },
                { title: k('row'), dataIndex: 'row', key: 'row', width: 70, render: (v: number) => v || '—' },
                { title: k('studentno'), dataIndex: 'studentno', key: 'studentno', width: 130 },
                { title: k('realname'), dataIndex: 'realname', key: 'realname', width: 120 },
                { title: k('gender'), dataIndex: 'gender', key: 'gender', width: 70, render: genderOf },
                {
                  title: k('before'),
                  key: 'before',
                  render: (_, c) => (c.before ? `${c.before.realname} · ${genderOf(c.before.gender)}` : '—'),
                },
              ]}
              data-testid="roster-changes"
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
