import { Button, Form, Input, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ActionName, WrittenReport } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { RISK_LEVELS, type RiskLevel } from './written-state';

const UPDATE = 'as.m.report.updateWrittenReport';

interface DraftForm {
  summary: string;
  findings: string;
  risks: { level: RiskLevel; text: string }[];
  staffsteps: string;
  personsteps: string;
}

/** Text areas hold one item per line; blank lines are dropped. */
const toLines = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Edit a draft written report: its summary, findings, risks and next steps. It stays a draft to approve. */
export default function WrittenDraftDialog({
  open,
  report,
  onClose,
  invalidates,
}: {
  open: boolean;
  report: WrittenReport;
  onClose: () => void;
  invalidates: ActionName[];
}) {
  const { t } = useTranslation();
  const k = (key: string) => t(`empower.written.${key}`);
  const lines = { rules: [{ validator: async (_: unknown, v: string) => { if (!toLines(v).length) throw new Error(k('lineRequired')); } }] };
  return (
    <FormDialog<DraftForm>
      open={open}
      title={k('editTitle')}
      action={UPDATE}
      resource="empower.written"
      width={760}
      layout="vertical"
      success={k('draftSaved')}
      values={{
        summary: report.summary,
        findings: report.findings.join('\n'),
        risks: report.risks.map((r) => ({ ...r })),
        staffsteps: report.staffsteps.join('\n'),
        personsteps: report.personsteps.join('\n'),
      }}
      onSubmit={(v) =>
        call(UPDATE, {
          writtenid: report.writtenid,
          summary: v.summary.trim(),
          findings: toLines(v.findings),
          risks: (v.risks ?? []).filter((r) => r.text?.trim()).map((r) => ({ level: r.level, text: r.text.trim() })),
          staffsteps: toLines(v.staffsteps),
          personsteps: toLines(v.personsteps),
        })
      }
      invalidates={invalidates}
      onClose={onClose}
      data-testid="written-draft-dialog"
    >
      <Typography.Paragraph type="secondary">{k('editHint')}</Typography.Paragraph>
      <Field name="summary" label={k('summary')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} data-testid="draft-summary" />
      </Field>
      <Form.Item name="findings" label={k('findings')} required {...lines}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} data-testid="draft-findings" />
      </Form.Item>
      <Form.Item label={k('risk')}>
        <Form.List name="risks">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map((field) => (
                <Space key={field.key} align="start" style={{ display: 'flex' }}>
                  <Form.Item name={[field.name, 'level']} noStyle>
                    <Select
                      style={{ width: 110 }}
                      options={RISK_LEVELS.map((l) => ({ value: l, label: t(`empower.written.levels.${l}`) }))}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'text']} noStyle>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} style={{ width: 520 }} />
                  </Form.Item>
                  <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('common.delete')} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ level: 'moderate', text: '' })}>
                {t('common.add')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item name="staffsteps" label={k('staffSteps')} required {...lines}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} data-testid="draft-staff-steps" />
      </Form.Item>
      <Form.Item name="personsteps" label={k('personSteps')} required {...lines}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} data-testid="draft-person-steps" />
      </Form.Item>
    </FormDialog>
  );
}
