import { useTranslation } from 'react-i18next';
import { ListingStatus, type GoodsRow } from '@xinli/contract';
import { f, ListView } from '../../components/list';
import { useOwnedList } from './owned-list';
import GoodsDialog from './GoodsDialog';
import { yuan } from './money';
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
  const { list, col, dialog, titleCol, insnameCol } = useOwnedList<GoodsRow>(LIST, {
    resource: 'operations.goods',
    title: 'goodsname',
    titleMax: 50,
    filter: f.enumOf('status', ListingStatus, { width: 120 }),
  });
  const setStatus = (r: GoodsRow, status: 1 | 2, key: 'list' | 'delist') =>
    col.confirmed(
      {
        action: 'as.m.goods.setGoodsStatus',
        input: { goodsid: r.goodsid, status },
        content: k(status === 1 ? 'listConfirm' : 'delistConfirm', { name: r.goodsname }),
        success: t('common.saved'),
      },
      { key, label: k(key), testId: `goods-${key}-${r.goodsid}` },
    );
  return (
    <ListView<GoodsRow>
      list={list}
      rowKey="goodsid"
      add={{ action: 'as.m.goods.insertGoods', onClick: dialog.add, testId: 'goods-add' }}
      columns={[
        titleCol(220),
        col.text('price', { width: 100, align: 'right', render: (v: number) => yuan(v) }),
        col.text('stock', { width: 80, align: 'right' }),
        col.text('sold', { width: 80, align: 'right' }),
        col.enumTag('status', ListingStatus, { width: 90, colors: STATUS_COLORS }),
        col.text('grantkind', {
          width: 170,
          render: (v: string, r) => (v === 'none' ? '—' : t('common.labelled', { label: k(`grants.${v as KeyOf<'operations.goods.grants'>}`), value: r.grantname || k('grantGone') })),
        }),
        ...insnameCol,
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'edit', action: 'as.m.goods.updateGoods', onClick: () => dialog.edit(r), testId: `goods-edit-${r.goodsid}` },
            r.status === 1 ? setStatus(r, 2, 'delist') : setStatus(r, 1, 'list'),
            col.remove('as.m.goods.deleteGoods', { goodsid: r.goodsid }, r.goodsname, { more: true }),
          ],
          { width: 170 },
        ),
      ]}
    >
      <GoodsDialog {...dialog.props} />
    </ListView>
  );
}
