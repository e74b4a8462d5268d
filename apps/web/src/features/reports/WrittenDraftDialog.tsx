import { Form, Input, Select, Typography } from 'antd';
import { writtenReportActions, writtenSections, type ActionName, type RiskLevel, type WrittenSections } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog, problemOf, problemText } from '../../components/form';
import { RISK_LEVELS } from './written-state';
import { useT } from '../../i18n/useT';

const UPDATE = 'as.m.report.updateAsai1UserReport';

/** Lists are edited as text, one item per line. */
type ListField = 'findings' | 'staffsteps' | 'personsteps';
interface DraftForm {
  sections: { summary: string; risk: { level: RiskLevel; text: string }; personmessage: string };
  lines: Record<ListField, string>;
}

/** Text areas hold one item per line; blank lines are dropped. */
export const toLines = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * Staff correct a draft written report before approving it: the summary, findings, risk, next
 * steps and the message to the person. Paragraph rules (required, length) come from the contract.
 */
export default function WrittenDraftDialog({
  open,
  writtenid,
  sections,
  onClose,
  invalidates,
}: {
  open: boolean;
  writtenid: string;
  sections: WrittenSections;
  onClose: () => void;
  invalidates: ActionName[];
}) {
  const k = useT('empower.written');
  // The lines are checked against the contract's list (how many, how long each) before sending.
  const lines = (field: ListField, label: string, testId: string) => (
    <Form.Item
      name={['lines', field]}
      label={label}
      rules={[
        {
          validator: async (_, v: string) => {
            const problem = problemOf(writtenSections.shape[field], toLines(v));
            if (problem) throw new Error(problemText(problem, label));
          },
        },
      ]}
    >
      <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} data-testid={testId} />
    </Form.Item>
  );
  return (
    <FormDialog<DraftForm>
      open={open}
      title={k('editTitle')}
      action={writtenReportActions[UPDATE]}
      resource="empower.written"
      width={760}
      layout="vertical"
      success={k('draftSaved')}
      values={{
        sections: { summary: sections.summary, risk: { ...sections.risk }, personmessage: sections.personmessage },
        lines: { findings: sections.findings.join('\n'), staffsteps: sections.staffsteps.join('\n'), personsteps: sections.personsteps.join('\n') },
      }}
      onSubmit={(v) =>
        call(UPDATE, {
          writtenid,
          sections: {
            summary: v.sections.summary,
            findings: toLines(v.lines.findings),
            risk: v.sections.risk,
            staffsteps: toLines(v.lines.staffsteps),
            personmessage: v.sections.personmessage,
            personsteps: toLines(v.lines.personsteps),
          },
        })
      }
      invalidates={invalidates}
      onClose={onClose}
      data-testid="written-draft-dialog"
    >
      <Typography.Paragraph type="secondary">{k('editHint')}</Typography.Paragraph>
      <Field name={['sections', 'risk', 'level']} label={k('risk')}>
        <Select style={{ width: 160 }} options={RISK_LEVELS.map((l) => ({ value: l, label: k(`levels.${l}`) }))} data-testid="draft-risk-level" />
      </Field>
      <Field name={['sections', 'risk', 'text']} label={k('riskText')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} data-testid="draft-risk-text" />
      </Field>
      <Field name={['sections', 'summary']} label={k('summary')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} data-testid="draft-summary" />
      </Field>
      {lines('findings', k('findings'), 'draft-findings')}
      {lines('staffsteps', k('staffSteps'), 'draft-staff-steps')}
      <Field name={['sections', 'personmessage']} label={k('personMessage')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} data-testid="draft-person-message" />
      </Field>
      {lines('personsteps', k('personSteps'), 'draft-person-steps')}
    </FormDialog>
  );
}
