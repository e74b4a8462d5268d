import { useState } from 'react';
import { Input, InputNumber, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { orderActions, OrderStatus, type OrderRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { ExportButton } from '../../components/transfer';
import OrderDrawer, { GrantTag, STATUS_COLORS } from './OrderDrawer';
import { toFen, yuan } from './money';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.order.getOrderPage';

/**
 * Orders (orderManagement, 00054): what respondents bought through the institution's QR link,
 * with filters (status, goods, date, amount, buyer), one order's history, full or partial refunds
 * (never more than paid) and export of the filtered list. Buyer names and phones are masked.
 */
export default function OrderManagement() {
  const { t } = useTranslation();
  const k = useT('operations.order');
  const institutions = useInstitutions();
  const [open, setOpen] = useState<string | null>(null);
  const [refunding, setRefunding] = useState<OrderRow | null>(null);
  const goods = useAction('as.m.goods.getGoodsPage', { page: 1, pageSize: 200 });
  const filters: FilterDef[] = [
    f.enumOf('status', OrderStatus, { width: 120 }),
    f.select(
      'goodsid',
      (goods.data?.rows ?? []).map((g) => ({ value: g.goodsid, label: g.goodsname })),
      { width: 180 },
    ),
    f.dateRange('createdat', ['datefrom', 'dateto']),
    f.moneyRange('amount', ['amountmin', 'amountmax']),
    f.text('buyer', { maxLength: 50, width: 150 }),
    f.institution(),
  ];
  const list = useListPage(LIST, { resource: 'operations.order', filters });
  const col = list.colFor<OrderRow>();

  return (
    <ListView<OrderRow>
      list={list}
      rowKey="orderid"
      actions={
        <ExportButton action="as.m.order.exportOrders" input={exportInput()} data-testid="order-export">
          {t('common.transfer.export')}
        </ExportButton>
      }
      columns={[
        col.text('orderid', {
          width: 140,
          render: (v: string) => (
            <a onClick={() => setOpen(v)} data-testid={`order-open-${v}`}>
              {v}
            </a>
          ),
        }),
        col.text('goodsname', { width: 150, render: (v: string, r) => `${v} × ${r.quantity}` }),
        // What was refunded sits under the amount: one column fewer, so 1440 px shows every column.
        col.text('amount', {
          width: 110,
          align: 'right',
          render: (v: number, r) => (
            <Space orientation="vertical" size={0}>
              {yuan(v)}
              {r.refunded > 0 && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`order-refunded-${r.orderid}`}>
                  {k('refundedAmount', { amount: yuan(r.refunded) })}
                </Typography.Text>
              )}
            </Space>
          ),
        }),
        col.enumTag('status', OrderStatus, { width: 110, colors: STATUS_COLORS }),
        col.text('grant', { width: 130, render: (_: unknown, r) => <GrantTag grant={r.grant} /> }),
        col.text('buyername', { width: 130, render: (v: string, r) => `${v} ${r.buyerphone}` }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.time('createdat'),
        col.time('paidat'),
        col.actions(
          (r) => [
            { key: 'history', label: k('history'), onClick: () => setOpen(r.orderid), testId: `order-history-${r.orderid}` },
            {
              key: 'refund',
              label: k('refund'),
              action: 'as.m.order.refundOrder',
              hidden: r.status !== 3 && r.status !== 10,
              onClick: () => setRefunding(r),
              testId: `order-refund-${r.orderid}`,
            },
            {
              key: 'cancel',
              label: k('cancel'),
              action: 'as.m.order.cancelOrder',
              hidden: r.status !== 1 && r.status !== 2,
              danger: true,
              onClick: () =>
                void list.confirm({
                  action: 'as.m.order.cancelOrder',
                  input: { orderid: r.orderid },
                  content: k('cancelConfirm', { id: r.orderid }),
                  success: k('cancelled'),
                  danger: true,
                }),
            },
          ],
          { width: 150 },
        ),
      ]}
    >
      <OrderDrawer orderid={open} onClose={() => setOpen(null)} />
      <RefundDialog order={refunding} onClose={() => setRefunding(null)} />
    </ListView>
  );

  /** The export takes the list's filters (from the URL) without its page. */
  function exportInput() {
    const params = new URLSearchParams(location.search);
    const pick = (n: string) => params.get(n) || undefined;
    const num = (n: string) => (params.get(n) ? Number(params.get(n)) : undefined);
    return {
      status: num('status') as OrderRow['status'] | undefined,
      goodsid: pick('goodsid'),
      datefrom: pick('datefrom'),
      dateto: pick('dateto'),
      amountmin: num('amountmin'),
      amountmax: num('amountmax'),
      buyer: pick('buyer'),
      musercode: pick('musercode'),
    };
  }
}

interface RefundForm {
  amountyuan: number;
  note: string;
}

/** A full or partial refund: at most what was paid and not yet refunded. */
function RefundDialog({ order, onClose }: { order: OrderRow | null; onClose: () => void }) {
  const k = useT('operations.order');
  const left = order ? order.amount - order.refunded : 0;
  return (
    <FormDialog<RefundForm>
      open={!!order}
      title={k('refundTitle', { id: order?.orderid ?? '' })}
      action={orderActions['as.m.order.refundOrder']}
      resource="operations.order"
      values={{ amountyuan: left / 100, note: '' }}
      invalidates={['as.m.order.getOrderPage', 'as.m.order.getOrderHistory', 'as.m.goods.getGoodsPage']}
      success={k('refunded_')}
      onSubmit={(v) => call('as.m.order.refundOrder', { orderid: order!.orderid, amount: toFen(v.amountyuan), note: v.note ?? '' })}
      onClose={onClose}
      data-testid="refund-dialog"
    >
      <p>{k('refundLeft', { paid: yuan(order?.amount ?? 0), left: yuan(left) })}</p>
      <Field
        name="amountyuan"
        label={k('refundAmount')}
        rules={[
          { required: true, message: k('refundAmountRequired') },
          {
            validator: async (_, v: number) =>
              toFen(v) > left || toFen(v) < 1 ? Promise.reject(new Error(k('refundTooMuch', { left: yuan(left) }))) : undefined,
          },
        ]}
      >
        <InputNumber precision={2} prefix="¥" style={{ width: 180 }} data-testid="refund-amount" />
      </Field>
      <Field name="note">
        <Input maxLength={200} />
      </Field>
    </FormDialog>
  );
}
