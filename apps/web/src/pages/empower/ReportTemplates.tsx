import { useState } from 'react';
import { Form, Select, Tag } from 'antd';
import { reportTemplateActions, type ActionInput, type TemplateRow } from '@xinli/contract';
import { call } from '../../api';
import { f, ListView, useEditDialog, useListPage } from '../../components/list';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { useT } from '../../i18n/useT';
import ReportTemplateDialog from './ReportTemplateDialog';
import './report-templates.css';

const LIST = 'as.m.reportTemplate.getPage';

/**
 * The custom report's templates (定制报告, issue 31 §4; menu 0018021): the institution's (or, for a
 * provider, its institutions') templates with their current version, forms and the plans using
 * them; the designer with its live preview; and the choice of template of a custom-report plan.
 */
export default function ReportTemplates() {
  const k = useT('empower.template');
  const dialog = useEditDialog<TemplateRow>();
  const [forPlan, setForPlan] = useState<TemplateRow | null>(null);
  const list = useListPage(LIST, { resource: 'empower.template', filters: [f.text('name', { maxLength: 64, width: 200 })] });
  const col = list.colFor<TemplateRow>();
  return (
    <ListView<TemplateRow>
      list={list}
      rowKey="templateid"
      add={{ action: 'as.m.reportTemplate.insert', onClick: dialog.add, label: k('add'), testId: 'template-add' }}
      columns={[
        col.text('name', { width: 180 }),
        col.text('version', { width: 90, align: 'right', render: (v: number) => `v${v}` }),
        col.text('formcodes', { width: 140, render: (v: string[]) => v.join('、') }),
        col.text('plans', {
          width: 200,
          render: (v: string[]) => (v.length ? v.map((p) => <Tag key={p}>{p}</Tag>) : <span className="template-muted">{k('noPlans')}</span>),
        }),
        col.time('updatedat'),
        col.actions(
          (r) => [
            { key: 'edit', action: 'as.m.reportTemplate.update', onClick: () => dialog.edit(r), testId: `template-edit-${r.templateid}` },
            { key: 'useForPlan', label: k('useForPlan'), action: 'as.m.reportTemplate.setPlanTemplate', onClick: () => setForPlan(r), testId: `template-plan-${r.templateid}` },
            col.remove('as.m.reportTemplate.delete', { templateid: r.templateid }, r.name, { more: true }),
          ],
          { width: 200 },
        ),
      ]}
    >
      <ReportTemplateDialog {...dialog.props} />
      <PlanDialog template={forPlan} onClose={() => setForPlan(null)} />
    </ListView>
  );
}

type PlanForm = ActionInput<'as.m.reportTemplate.setPlanTemplate'>;

/** A plan of the custom-report app picks this template. */
function PlanDialog({ template, onClose }: { template: TemplateRow | null; onClose: () => void }) {
  const k = useT('empower.template');
  const [form] = Form.useForm<PlanForm>();
  const plans = useAction('as.m.exam.plan.getMUserExamPlanPage', { appid: '000000005', page: 1, pageSize: 200 }, { enabled: !!template });
  return (
    <FormDialog<PlanForm>
      open={!!template}
      title={k('planTitle', { name: template?.name ?? '' })}
      action={reportTemplateActions['as.m.reportTemplate.setPlanTemplate']}
      resource="empower.template"
      form={form}
      values={{ templateid: template?.templateid ?? null }}
      invalidates={[LIST, 'as.m.reportTemplate.get']}
      onSubmit={(v) => call('as.m.reportTemplate.setPlanTemplate', { plancode: v.plancode, templateid: template!.templateid })}
      onClose={onClose}
      data-testid="template-plan-dialog"
    >
      <Field name="plancode" extra={plans.data && !plans.data.rows.length ? k('noCustomPlans') : k('planHelp')}>
        <Select
          loading={plans.isLoading}
          options={(plans.data?.rows ?? []).map((p) => ({ value: p.plancode, label: p.planname }))}
          data-testid="template-plan-select"
        />
      </Field>
    </FormDialog>
  );
}
