import { AutoComplete, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { taskActions, type ActionInput } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { TEAM_KEYS, useTeamLookups } from './task-ui';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

type TeamForm = ActionInput<'as.m.assess.insertAssessTeam'>;
const BLANK: TeamForm = { kind: 'class', school: '', year: '', term: '', grade: '', classname: '', deptname: '' };
/** A cleared input is an empty field, not a missing one. */
const blank = (v: string | undefined) => v ?? '';

/** A value typed or picked from the ones the institution's teams already have (same spelling, same filter). */
function Suggest({ options, ...props }: { options: { value: string }[] } & React.ComponentProps<typeof AutoComplete>) {
  return <AutoComplete options={options} filterOption={(input, o) => String(o?.value ?? '').includes(input)} allowClear {...props} />;
}

/** A new team: a class (school, year, term, grade, class) or a department. */
export default function TeamDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.team');
  const [form] = Form.useForm<TeamForm>();
  const kind = Form.useWatch('kind', form) ?? 'class';
  const institutions = useInstitutions();
  const lookups = useTeamLookups(Form.useWatch('musercode', form));
  const needed = (field: KeyOf<'task.team'>) => [{ required: true, message: t('common.rule.required', { field: k(field) }) }];
  return (
    <FormDialog<TeamForm>
      open={open}
      action={taskActions['as.m.assess.insertAssessTeam']}
      resource="task.team"
      form={form}
      values={BLANK}
      // The hidden kind's fields are sent empty (the wire has every field, '' when not used).
      onSubmit={(v) => call('as.m.assess.insertAssessTeam', { ...BLANK, ...v })}
      invalidates={TEAM_KEYS}
      onClose={onClose}
      data-testid="team-dialog"
    >
      {institutions.many && (
        <Field name="musercode" label={t('common.institution')}>
          <InstitutionSelect allowClear />
        </Field>
      )}
      <Field name="kind">
        <Radio.Group options={(['class', 'dept'] as const).map((v) => ({ value: v, label: k(`kinds.${v}`) }))} optionType="button" />
      </Field>
      {kind === 'class' ? (
        <>
          <Field name="school" normalize={blank} rules={needed('school')} required>
            <Suggest options={lookups.school} data-testid="team-school" />
          </Field>
          <Field name="year" normalize={blank}>
            <Suggest options={lookups.year} placeholder={k('yearPlaceholder')} data-testid="team-year" />
          </Field>
          <Field name="term" normalize={blank}>
            <Suggest options={lookups.term} placeholder={k('termPlaceholder')} />
          </Field>
          <Field name="grade" normalize={blank} rules={needed('grade')} required>
            <Suggest options={lookups.grade} data-testid="team-grade" />
          </Field>
          <Field name="classname" rules={needed('classname')} required>
            <Input data-testid="team-classname" />
          </Field>
        </>
      ) : (
        <Field name="deptname" rules={needed('deptname')} required>
          <Input data-testid="team-deptname" />
        </Field>
      )}
    </FormDialog>
  );
}
