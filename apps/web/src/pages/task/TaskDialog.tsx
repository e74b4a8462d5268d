import { App as AntApp, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { taskActions, type TaskRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, noOptions, useInstitutions } from '../../components/pickers';
import { TASK_KEYS } from './task-ui';
import { useT } from '../../i18n/useT';

interface TaskForm {
  musercode?: string;
  taskname: string;
  plancode: string;
  teamids: string[];
  window: [Dayjs, Dayjs];
}

/** The plans the institution may use (its own or authorised to it) and its teams, as options. */
function useChoices(musercode: string | undefined, open: boolean) {
  const { t } = useTranslation();
  const plansInput = { musercodes: musercode ? [musercode] : [], page: 1, pageSize: 200 };
  const plans = useAction('as.m.exam.plan.getMultipleMUserExamPlanPage', plansInput, { enabled: open && !!musercode });
  const teamsInput = { musercode, page: 1, pageSize: 200 };
  const teams = useAction('as.m.assess.getAssessTeamPageList', teamsInput, { enabled: open && !!musercode });
  return {
    plans: (plans.data?.rows ?? []).map((p) => ({ value: p.plancode, label: p.planname })),
    teams: (teams.data?.rows ?? []).map((x) => ({ value: x.teamid, label: t('common.bracketed', { text: x.teamname, detail: x.membercount }) })),
    loading: plans.isLoading || teams.isLoading,
    plansRead: plans,
    teamsRead: teams,
  };
}

/**
 * Create or change a task: its plan, its teams and its window. Saving gives every roster member
 * of its teams a personal code (members added later get theirs with "issue codes"). Once anyone
 * has answered, the plan is fixed: the field says why.
 */
export default function TaskDialog({ open, task, onClose }: { open: boolean; task: TaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.task');
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<TaskForm>();
  const institutions = useInstitutions();
  const chosen = Form.useWatch('musercode', form);
  const musercode = task?.musercode ?? chosen ?? institutions.own;
  const choices = useChoices(musercode, open);
  const locked = !!task && task.answeredcount > 0;
  // A task's plan stays listed even when the plan list no longer offers it.
  const plans = task && !choices.plans.some((p) => p.value === task.plancode) ? [{ value: task.plancode, label: task.planname }, ...choices.plans] : choices.plans;

  const save = async ({ musercode: m, taskname, plancode, teamids, window: [start, end] }: TaskForm) => {
    const window = { startat: start.format(), endat: end.format() };
    let taskid = task?.taskid;
    if (task) await call('as.m.assess.updateAssessTask', { taskid: task.taskid, taskname, teamids, ...window, ...(locked ? {} : { plancode }) });
    else taskid = (await call('as.m.assess.insertAssessTask', { musercode: m || undefined, taskname, plancode, teamids, ...window })).taskid;
    if (end.isBefore(dayjs())) return message.success(t('common.saved'));
    const { issued, total } = await call('as.m.assess.insertAssessTeamRosterTask', { taskid: taskid! });
    message.success(k('savedIssued', { issued, total }));
  };

  return (
    <FormDialog<TaskForm>
      open={open}
      editing={!!task}
      action={taskActions[task ? 'as.m.assess.updateAssessTask' : 'as.m.assess.insertAssessTask']}
      resource="task.task"
      form={form}
      values={
        task
          ? { taskname: task.taskname, plancode: task.plancode, teamids: task.teams.map((x) => x.teamid), window: [dayjs(task.startat), dayjs(task.endat)] }
          : { window: [dayjs().startOf('hour'), dayjs().startOf('hour').add(7, 'day')] }
      }
      onSubmit={save}
      success={false}
      invalidates={TASK_KEYS}
      onClose={onClose}
      width={640}
      data-testid="task-dialog"
    >
      {!task && institutions.many && (
        <Field name="musercode" label={t('common.institution')}>
          <InstitutionSelect allowClear onChange={() => form.setFieldsValue({ plancode: undefined, teamids: [] })} />
        </Field>
      )}
      <Field name="taskname">
        <Input data-testid="task-name" />
      </Field>
      <Field
        name="plancode"
        required
        rules={[{ required: true, message: t('common.choose', { field: k('plancode') }) }]}
        extra={locked ? k('planLocked', { count: task.answeredcount }) : undefined}
      >
        <Select showSearch={{ optionFilterProp: 'label' }} options={plans} loading={choices.loading} disabled={locked} notFoundContent={noOptions(choices.plansRead, k('noPlans'))} data-testid="task-plan" />
      </Field>
      <Field name="teamids" required rules={[{ required: true, message: t('common.choose', { field: k('teamids') }) }]} extra={task ? k('teamsHelp') : undefined}>
        <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={choices.teams} loading={choices.loading} notFoundContent={noOptions(choices.teamsRead, k('noTeams'))} data-testid="task-teams" />
      </Field>
      <Field
        name="window"
        label={k('window')}
        required
        rules={[
          { required: true, message: t('common.choose', { field: k('window') }) },
          { validator: async (_, v?: [Dayjs, Dayjs]) => { if (v && !v[0].isBefore(v[1])) throw new Error(k('windowOrder')); } },
        ]}
      >
        <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="task-window" />
      </Field>
    </FormDialog>
  );
}
