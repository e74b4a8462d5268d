import { useState } from 'react';
import { Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Gender, taskActions, type ActionInput, type TeamRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { noOptions } from '../../components/pickers';
import { useAccess } from '../../components/access';
import { Field, FormDialog } from '../../components/form';
import { useEnumOptions } from '../../lib/options';
import { ROSTER_KEYS } from './task-ui';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

type MemberForm = ActionInput<'as.m.assess.insertAssessTeamCUser'> & { who: 'new' | 'existing' };
const PERSONS = 'as.m.cuser.getCUserPageList';

/** A person of the team's institution chosen by typing part of the name. */
function PersonSelect({ musercode, appid, ...props }: { musercode: string; appid: string } & React.ComponentProps<typeof Select<string>>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const input = { musercode, appid, realname: search.trim() || undefined, page: 1, pageSize: 20 };
  const q = useAction(PERSONS, input, { staleTime: 30_000 });
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={q.isFetching}
      options={(q.data?.rows ?? []).map((p) => ({ value: p.cusercode, label: p.birthdate ? `${p.realname} · ${p.birthdate}` : p.realname }))}
      placeholder={t('task.team.personSearch')}
      notFoundContent={noOptions(q, t('task.team.noPerson'))}
      {...props}
    />
  );
}

/** Adds one member to a roster with a number unique in the team: a new person, or one already in the archives. */
export default function MemberDialog({ team, open, onClose }: { team: TeamRow; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.team');
  const { can } = useAccess();
  const [form] = Form.useForm<MemberForm>();
  const who = Form.useWatch('who', form) ?? 'new';
  const genders = useEnumOptions(Gender);
  const required = (field: KeyOf<'task.team'>) => [{ required: true, message: t('common.rule.required', { field: k(field) }) }];
  return (
    <FormDialog<MemberForm>
      open={open}
      title={k('addMemberTitle', { name: team.teamname })}
      action={taskActions['as.m.assess.insertAssessTeamCUser']}
      resource="task.team"
      form={form}
      values={{ who: 'new', gender: '01' }}
      onSubmit={({ who: w, cusercode, realname, gender, studentno }) =>
        call('as.m.assess.insertAssessTeamCUser', { teamid: team.teamid, studentno, ...(w === 'existing' ? { cusercode } : { realname, gender }) })
      }
      invalidates={ROSTER_KEYS}
      onClose={onClose}
      width={520}
      data-testid="member-dialog"
    >
      <Field name="studentno">
        <Input data-testid="member-studentno" />
      </Field>
      {can(PERSONS) && (
        <Form.Item name="who" label={k('memberWho')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'new', label: k('memberNew') },
              { value: 'existing', label: k('memberExisting') },
            ]}
          />
        </Form.Item>
      )}
      {who === 'existing' ? (
        <Field name="cusercode" rules={required('cusercode')} required>
          <PersonSelect musercode={team.musercode} appid={team.appid} />
        </Field>
      ) : (
        <>
          <Field name="realname" rules={required('realname')} required>
            <Input data-testid="member-realname" />
          </Field>
          <Field name="gender" rules={required('gender')} required>
            <Radio.Group options={genders} />
          </Field>
        </>
      )}
    </FormDialog>
  );
}
