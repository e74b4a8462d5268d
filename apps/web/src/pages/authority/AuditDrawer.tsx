import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { actionTitle, AuditResult, type AuditRow, type Title } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Waiting } from '../../components/list';
import { formatTime, timeZoneLabel } from '../../lib/format';
import { useT } from '../../i18n/useT';
import './audit.css';

export const RESULT_COLORS: Record<string, string> = { ok: 'green', fail: 'orange', denied: 'red', locked: 'purple' };
export const titleIn = (title: Title, lang: string) => (lang === 'en-US' ? title.en : title.zh);

/** One audit entry: who, what, when (UTC and local), outcome, address, request, its detail and its two hashes. */
export default function AuditDrawer({ row, onClose }: { row: AuditRow | null; onClose: () => void }) {
  const { i18n } = useTranslation();
  const k = useT('authority.audit');
  const q = useAction('as.m.audit.getAuditEntry', { auditid: row?.auditid ?? '' }, { enabled: !!row });
  const e = q.data;
  const result = AuditResult.find((i) => i.value === e?.result);
  return (
    <Drawer open={!!row} onClose={onClose} title={k('detailTitle', { seq: row?.seq ?? '' })} size={560} destroyOnHidden data-testid="audit-drawer">
      {!e ? (
        <Waiting query={q} />
      ) : (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={k('at')}>
            {formatTime(e.at, true)} ({timeZoneLabel()}) · {e.at}
          </Descriptions.Item>
          <Descriptions.Item label={k('insname')}>{e.insname ? `${e.insname} (${e.musercode})` : e.musercode || '—'}</Descriptions.Item>
          <Descriptions.Item label={k('username')}>{e.username || e.userid || k('ownAccount')}</Descriptions.Item>
          {e.actor ? <Descriptions.Item label={k('actor')}>{e.actor}</Descriptions.Item> : null}
          <Descriptions.Item label={k('action')}>{titleIn(actionTitle(e.action), i18n.language)}</Descriptions.Item>
          <Descriptions.Item label={k('actionName')}>
            <Typography.Text code>{e.action}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={k('result')}>
            <Tag color={RESULT_COLORS[e.result]} data-testid="audit-drawer-result">
              {result ? titleIn(result, i18n.language) : e.result}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={k('ip')}>{e.ip || '—'}</Descriptions.Item>
          <Descriptions.Item label={k('requestid')}>{e.requestid || '—'}</Descriptions.Item>
          <Descriptions.Item label={k('detail')}>
            <pre className="audit-detail" data-testid="audit-detail">
              {JSON.stringify(e.detail, null, 2)}
            </pre>
          </Descriptions.Item>
          <Descriptions.Item label={k('prevhash')}>
            <Typography.Text code className="audit-hash">
              {e.prevhash || '—'}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={k('hash')}>
            <Typography.Text code className="audit-hash">
              {e.hash}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
