import { useState } from 'react';
import { Button, Space } from 'antd';
import { RegistrationSources, RegistrationStates, type RegistrationDetail, type RegistrationRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { f, ListView, useConfirmCall, useListPage, type RowAction } from '../../components/list';
import CaseDialog from './CaseDialog';
import FillInDialog from './FillInDialog';
import RegistrationDrawer from './RegistrationDrawer';
import { STATE_COLOURS } from './questions';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.registration.getRegistrationPage';
type State = 'new' | 'inprogress' | 'closed';

/**
 * Consultation registrations (SPEC §2 /registration, registrationForm 00016): requests people
 * sent through the institution's QR entry and ones staff filled in for a person; a drawer with
 * the answers; state changes; turning one into a case.
 */
export default function RegistrationForm() {
  const { can } = useAccess();
  const confirm = useConfirmCall();
  const k = useT('registration.registration');
  const forms = useAction('as.m.registration.getRegistrationForms', {}, { staleTime: 60_000 });
  const list = useListPage(LIST, {
    resource: 'registration.registration',
    filters: [
      f.text('realname', { maxLength: 50 }),
      f.enumOf('state', RegistrationStates),
      f.select('formcode', (forms.data ?? []).map((x) => ({ value: x.formcode, label: x.formname })), { width: 200 }),
      f.dateRange('dateRange', ['startdate', 'enddate']),
      f.institution(),
    ],
  });
  const [open, setOpen] = useState<string | null>(null);
  const [filling, setFilling] = useState(false);
  const [toCase, setToCase] = useState<RegistrationRow | null>(null);
  const col = list.colFor<RegistrationRow>();

  const setState = (r: Pick<RegistrationRow, 'regid'>, state: State) =>
    confirm({ action: 'as.m.registration.updateRegistrationState', input: { regid: r.regid, state }, direct: true, invalidates: [LIST, 'as.m.registration.getRegistration'] });
  /** What may be done with a registration in its state (none once it is a case); in the drawer, beside its answers. */
  const moves = (r: Pick<RegistrationRow, 'regid' | 'state'>): RowAction[] =>
    r.state === 'case'
      ? []
      : [
          ...(r.state !== 'inprogress' ? [{ key: 'inprogress', label: k('toInprogress'), onClick: () => void setState(r, 'inprogress'), testId: `registration-inprogress-${r.regid}` }] : []),
          ...(r.state !== 'closed' ? [{ key: 'closed', label: k('toClosed'), onClick: () => void setState(r, 'closed'), testId: `registration-close-${r.regid}` }] : []),
          ...(r.state === 'closed' ? [{ key: 'new', label: k('toNew'), onClick: () => void setState(r, 'new'), testId: `registration-reopen-${r.regid}` }] : []),
        ].filter(() => can('as.m.registration.updateRegistrationState'));
  const drawerActions = (r: RegistrationDetail) => (
    <Space wrap>
      {moves(r).map((m) => (
        <Button key={m.key} onClick={m.onClick} data-testid={`drawer-${m.key}`}>
          {m.label}
        </Button>
      ))}
      {r.state !== 'case' && can('as.m.registration.turnIntoCase') && (
        <Button type="primary" danger onClick={() => setToCase(r)} data-testid="drawer-case">
          {k('toCase')}
        </Button>
      )}
    </Space>
  );

  return (
    <ListView<RegistrationRow>
      list={list}
      rowKey="regid"
      add={{ action: 'as.m.registration.insertRegistration', onClick: () => setFilling(true), label: k('fillIn'), testId: 'registration-add' }}
      columns={[
        col.text('realname', {
          width: 120,
          render: (v: string, r) => (
            <a onClick={() => setOpen(r.regid)} data-testid={`registration-open-${r.regid}`}>
              {v}
            </a>
          ),
        }),
        col.text('phone', { width: 130, render: (v: string) => v || '—' }),
        col.text('formname', { width: 200 }),
        col.enumTag('state', RegistrationStates, { width: 120, colors: STATE_COLOURS }),
        col.enumTag('source', RegistrationSources, { width: 140 }),
        col.text('insname', { width: 160 }),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'view', label: k('view'), onClick: () => setOpen(r.regid), testId: `registration-view-${r.regid}` },
            ...(r.state !== 'case' && can('as.m.registration.turnIntoCase') ? [{ key: 'case', label: k('toCase'), onClick: () => setToCase(r), testId: `registration-case-${r.regid}` }] : []),
          ],
          { width: 150 },
        ),
      ]}
    >
      <RegistrationDrawer regid={open} onClose={() => setOpen(null)} actions={drawerActions} />
      {filling && <FillInDialog open={filling} onClose={() => setFilling(false)} />}
      {toCase && <CaseDialog row={toCase} onClose={() => setToCase(null)} />}
    </ListView>
  );
}
