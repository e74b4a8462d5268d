import { useState } from 'react';
import { Alert, Button, Space, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionTable, actionTitle, AuditResult, type AuditRow, type ChainCheck } from '@xinli/contract';
import { call } from '../../api';
import { Can } from '../../components/access';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { ExportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { useT } from '../../i18n/useT';
import AuditDrawer, { RESULT_COLORS, titleIn } from './AuditDrawer';

/** Every action the log may name (and the lockout it records besides), by its title in the caller's language. */
const actionOptions = (lang: string) =>
  [...Object.keys(actionTable), 'lockout']
    .map((name) => ({ value: name, label: titleIn(actionTitle(name), lang) }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));

/**
 * The audit log (auditLog, 000314; issue 30 §2): who did what, when, from where and with what
 * outcome, for the caller's institutions (a provider: its institutions'; the super account: all).
 * Filters are kept in the URL; one entry opens in a drawer; export takes the filters (and is
 * audited); "verify" recomputes the hash chain and names its first broken link.
 */
export default function AuditLog() {
  const { i18n } = useTranslation();
  const k = useT('authority.audit');
  const institutions = useInstitutions();
  const [open, setOpen] = useState<AuditRow | null>(null);
  const filters: FilterDef[] = [
    f.dateRange('at', ['datefrom', 'dateto']),
    f.text('account', { maxLength: 64, width: 170, placeholder: k('accountTip') }),
    f.select('action', actionOptions, { width: 220 }),
    f.enumOf('result', AuditResult, { width: 120 }),
    f.text('object', { maxLength: 64, width: 150 }),
    f.text('ip', { maxLength: 45, width: 140 }),
    f.institution(),
  ];
  const list = useListPage('as.m.audit.getAuditPage', { resource: 'authority.audit', filters });
  const col = list.colFor<AuditRow>();
  const lang = i18n.language;

  return (
    <ListView<AuditRow>
      list={list}
      rowKey="auditid"
      banner={<VerifyResult />}
      actions={
        <ExportButton action="as.m.audit.exportAudit" input={list.filters} data-testid="audit-export" />
      }
      columns={[
        col.text('seq', { width: 80 }),
        col.time('at', { width: 110 }),
        ...(institutions.many ? [col.text('insname', { width: 150 })] : []),
        col.text('username', {
          width: 130,
          render: (v: string, r) => (
            <Space orientation="vertical" size={0}>
              {v || r.userid || k('ownAccount')}
              {r.actor ? <Typography.Text type="secondary">{`${k('actor')}: ${r.actor}`}</Typography.Text> : null}
            </Space>
          ),
        }),
        col.text('action', {
          width: 200,
          render: (v: string) => (
            <span title={v} data-testid="audit-action">
              {titleIn(actionTitle(v), lang)}
            </span>
          ),
        }),
        col.enumTag('result', AuditResult, { width: 90, colors: RESULT_COLORS }),
        col.text('objects', { width: 180, ellipsis: true }),
        col.text('ip', { width: 120 }),
        col.actions((r) => [{ key: 'detail', label: k('detail'), onClick: () => setOpen(r), testId: `audit-open-${r.seq}` }], { width: 80 }),
      ]}
    >
      <AuditDrawer row={open} onClose={() => setOpen(null)} />
    </ListView>
  );
}

/** The "verify" button and what it found: the chain whole, or its first broken link. */
function VerifyResult() {
  const k = useT('authority.audit');
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<ChainCheck | null>(null);
  const run = () => {
    setBusy(true);
    setCheck(null);
    void call('as.m.audit.verifyAuditChain', {})
      .then(setCheck)
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
      <Space wrap>
        <Can action="as.m.audit.verifyAuditChain">
          <Button icon={<SafetyCertificateOutlined />} loading={busy} onClick={run} data-testid="audit-verify">
            {k('verify')}
          </Button>
        </Can>
        <Typography.Text type="secondary">{k('retention')}</Typography.Text>
      </Space>
      {busy && <Alert type="info" showIcon title={k('verifying')} />}
      {check && (
        <Alert
          type={check.whole ? 'success' : 'error'}
          showIcon
          data-testid="audit-verify-result"
          title={
            check.whole
              ? check.anchorseq
                ? k('wholeAnchored', { count: check.checked, anchor: check.anchorseq })
                : k('whole', { count: check.checked })
              : k('broken', {
                  seq: check.broken!.seq,
                  at: check.broken!.at ? formatTime(check.broken!.at, true) : '—',
                  reason: k(`reason.${check.broken!.reason}`),
                  count: check.checked,
                })
          }
        />
      )}
    </Space>
  );
}

