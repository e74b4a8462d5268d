import { Descriptions, Drawer, Tag, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrderStatus, type OrderRow } from '@xinli/contract';
import { Loaded } from '../../components/list';
import { useAction } from '../../components/query';
import { formatTime } from '../../lib/format';
import { yuan } from './money';
import { useT } from '../../i18n/useT';

const GRANT_COLORS: Record<string, string> = { granted: 'green', failed: 'red', revoked: 'default' };

/** What an order granted, as a tag: "Course: granted", "Assessment: not granted, refund due". */
export function GrantTag({ grant }: { grant: OrderRow['grant'] }) {
  const { t } = useTranslation();
  const k = useT('operations.order');
  if (!grant) return <>—</>;
  return (
    <Tag color={GRANT_COLORS[grant.status]} data-testid="order-grant">
      {t('common.labelled', { label: k(`grantKind.${grant.kind}`), value: k(`grantStatus.${grant.status}`) })}
    </Tag>
  );
}

export const STATUS_COLORS: Record<string, string> = {
  '1': 'default',
  '2': 'processing',
  '3': 'green',
  '4': 'red',
  '5': 'default',
  '10': 'orange',
  '11': 'purple',
};

/** One order, what it granted, and its history: every status change with amount, note, who and when. */
export default function OrderDrawer({ orderid, onClose }: { orderid: string | null; onClose: () => void }) {
  const { i18n } = useTranslation();
  const k = useT('operations.order');
  const q = useAction('as.m.order.getOrderHistory', { orderid: orderid ?? '' }, { enabled: !!orderid });
  const label = (s: number | null) => {
    const item = OrderStatus.find((o) => o.value === s);
    return item ? (i18n.language === 'en-US' ? item.en : item.zh) : '—';
  };
  return (
    <Drawer open={!!orderid} onClose={onClose} title={k('historyTitle')} size={520} destroyOnHidden data-testid="order-drawer">
      <Loaded query={q}>
        {({ order: o, events }) => (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={k('orderid')}>{o.orderid}</Descriptions.Item>
              <Descriptions.Item label={k('goodsname')}>
                {o.goodsname} × {o.quantity}
              </Descriptions.Item>
              <Descriptions.Item label={k('amount')}>{yuan(o.amount)}</Descriptions.Item>
              <Descriptions.Item label={k('refunded')}>{yuan(o.refunded)}</Descriptions.Item>
              <Descriptions.Item label={k('status')}>
                <Tag color={STATUS_COLORS[String(o.status)]} data-testid="order-drawer-status">
                  {label(o.status)}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label={k('buyername')}>
                {o.buyername} {o.buyerphone}
              </Descriptions.Item>
              {o.grant && (
                <>
                  <Descriptions.Item label={k('grant')}>
                    <GrantTag grant={o.grant} /> {o.grant.name || o.grant.ref}
                  </Descriptions.Item>
                  {o.grant.assesscode ? <Descriptions.Item label={k('assesscode')}>{o.grant.assesscode}</Descriptions.Item> : null}
                  {o.grant.reason ? <Descriptions.Item label={k('grantReason')}>{o.grant.reason}</Descriptions.Item> : null}
                  <Descriptions.Item label={k('grantAt')}>{formatTime(o.grant.at)}</Descriptions.Item>
                </>
              )}
            </Descriptions>
            <h3 className="order-history-title">{k('history')}</h3>
            <Timeline
              items={events.map((e) => ({
                key: e.seq,
                content: (
                  <div>
                    <div>
                      {e.fromstatus === null ? label(e.tostatus) : `${label(e.fromstatus)} → ${label(e.tostatus)}`}
                      {e.amount > 0 && ` · ${yuan(e.amount)}`}
                    </div>
                    <div className="order-history-meta">
                      {formatTime(e.at)} · {e.by === 'buyer' || e.by === 'sandbox' ? k(`by.${e.by}`) : e.by}
                      {e.note && ` · ${e.note}`}
                    </div>
                  </div>
                ),
              }))}
            />
          </>
        )}
      </Loaded>
    </Drawer>
  );
}
