import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListingStatus, type GoodsRow } from '@xinli/contract';
import { f, ListView, useListPage } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import GoodsDialog from './GoodsDialog';
import { yuan } from './money';
import { CoverTitle } from './MediaFields';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

const LIST = 'as.m.goods.getGoodsPage';
const STATUS_COLORS: Record<string, string> = { '0': 'default', '1': 'green', '2': 'orange' };

/**
 * Goods (goodsManagement, 00026): what the institution sells to its respondents through its QR
 * link, with price, stock, listing status (SPEC §3: 0 to be listed, 1 on sale, 2 delisted) and
 * what a purchase grants. Goods with orders cannot be deleted: delist them.
 */
export default function GoodsManagement() {
  const { t } = useTranslation();
  const k = useT('operations.goods');
  const institutions = useInstitutions();
  const [editing, setEditing] = useState<{ item: GoodsRow | null } | null>(null);
  const list = useListPage(LIST, {
    resource: 'operations.goods',
    filters: [f.text('goodsname', { maxLength: 50, width: 180 }), f.enumOf('status', ListingStatus, { width: 120 }), f.institution()],
    invalidates: ['as.m.access.getFilePage'],
  });
  const col = list.colFor<GoodsRow>();
  const setStatus = (r: GoodsRow, status: 0 | 1 | 2) =>
    void list.confirm({
      action: 'as.m.goods.setGoodsStatus',
      input: { goodsid: r.goodsid, status },
      content: k(status === 1 ? 'listConfirm' : 'delistConfirm', { name: r.goodsname }),
      success: t('common.saved'),
    });
  return (
    <ListView<GoodsRow>
      list={list}
      rowKey="goodsid"
      add={{ action: 'as.m.goods.insertGoods', onClick: () => setEditing({ item: null }), testId: 'goods-add' }}
      columns={[
        col.text('goodsname', {
          width: 220,
          render: (v: string, r) => <CoverTitle title={v} coverurl={r.coverurl} />,
        }),
        col.text('price', { width: 100, align: 'right', render: (v: number) => yuan(v) }),
        col.text('stock', { width: 80, align: 'right' }),
        col.text('sold', { width: 80, align: 'right' }),
        col.enumTag('status', ListingStatus, { width: 90, colors: STATUS_COLORS }),
        col.text('grantkind', {
          width: 170,
          render: (v: string, r) => (v === 'none' ? '—' : t('common.labelled', { label: k(`grants.${v as KeyOf<'operations.goods.grants'>}`), value: r.grantname || k('grantGone') })),
        }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'edit', action: 'as.m.goods.updateGoods', onClick: () => setEditing({ item: r }), testId: `goods-edit-${r.goodsid}` },
            r.status === 1
              ? {
                  key: 'delist',
                  label: k('delist'),
                  action: 'as.m.goods.setGoodsStatus',
                  onClick: () => setStatus(r, 2),
                  testId: `goods-delist-${r.goodsid}`,
                }
              : {
                  key: 'list',
                  label: k('list'),
                  action: 'as.m.goods.setGoodsStatus',
                  onClick: () => setStatus(r, 1),
                  testId: `goods-list-${r.goodsid}`,
                },
            col.remove('as.m.goods.deleteGoods', { goodsid: r.goodsid }, r.goodsname, { more: true }),
          ],
          { width: 170 },
        ),
      ]}
    >
      <GoodsDialog open={!!editing} item={editing?.item ?? null} onClose={() => setEditing(null)} />
    </ListView>
  );
}
