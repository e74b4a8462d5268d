import { useState } from 'react';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { orderActions, grantKinds, MAX_PRICE_FEN, type ActionInput, type GoodsRow } from '@xinli/contract';
import { call } from '../../api';
import { noOptions } from '../../components/pickers';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { CoverInput, OwnerField } from './DialogFields';
import { toFen } from './money';
import { useT } from '../../i18n/useT';

/** The input's fields, the price in yuan (fen on the wire). */
type GoodsForm = Omit<ActionInput<'as.m.goods.insertGoods'>, 'price'> & { priceyuan: number };

/** What is sent: the price in fen, and only the grant the kind uses. */
const bodyOf = ({ priceyuan, ...v }: GoodsForm) => ({
  ...v,
  price: toFen(priceyuan),
  grantcourseid: v.grantkind === 'course' ? v.grantcourseid : '',
  grantplancode: v.grantkind === 'plan' ? v.grantplancode : '',
});

/** Create or change goods: name, cover, description, price (yuan here, fen on the wire), stock and what a purchase grants. */
export default function GoodsDialog({ open, item, onClose }: { open: boolean; item: GoodsRow | null; onClose: () => void }) {
  const k = useT('operations.goods');
  const [form] = Form.useForm<GoodsForm>();
  const [cover, setCover] = useState<string | null>(null);
  const owner = Form.useWatch('musercode', form) ?? item?.musercode;
  const coverUrl = cover ?? (item?.coverurl || null);
  return (
    <FormDialog<GoodsForm>
      open={open}
      editing={!!item}
      action={orderActions[item ? 'as.m.goods.updateGoods' : 'as.m.goods.insertGoods']}
      resource="operations.goods"
      form={form}
      record={item && { ...item, priceyuan: item.price / 100 }}
      defaults={{ priceyuan: 0, stock: 100 }}
      width={640}
      invalidates={['as.m.goods.getGoodsPage', 'as.m.access.getFilePage']}
      onSubmit={(v) => (item ? call('as.m.goods.updateGoods', { goodsid: item.goodsid, ...bodyOf(v) }) : call('as.m.goods.insertGoods', bodyOf(v)))}
      onClose={() => {
        setCover(null);
        onClose();
      }}
      data-testid="goods-dialog"
    >
      <OwnerField adding={!item} />
      <Field name="goodsname">
        <Input data-testid="goods-name" />
      </Field>
      <Field name="coverfileid">
        <CoverInput
          resource="operations.goods"
          shown={coverUrl ? { url: coverUrl, filename: '' } : null}
          musercode={owner}
          onPicked={(c) => setCover(c.url)}
          testId="goods-cover"
        />
      </Field>
      <Field name="priceyuan" label={k('priceyuan')} rules={[{ required: true, message: k('priceRequired') }]}>
        <InputNumber min={0} max={MAX_PRICE_FEN / 100} precision={2} prefix="¥" style={{ width: 180 }} data-testid="goods-price" />
      </Field>
      <Field name="stock">
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: 180 }} data-testid="goods-stock" />
      </Field>
      <GrantFields owner={owner} />
      <Field name="description">
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
      </Field>
    </FormDialog>
  );
}

/** No grant yet ('') shows the placeholder. */
const noneChosen = (v: string | undefined) => ({ value: v || undefined });

/**
 * What a purchase grants: nothing, one of the institution's courses, or one assessment of a plan
 * it may give (its own, or authorised to it, with the count left), chosen from its own objects.
 */
function GrantFields({ owner }: { owner?: string }) {
  const { t } = useTranslation();
  const k = useT('operations.goods');
  const form = Form.useFormInstance<GoodsForm>();
  const kind = Form.useWatch('grantkind', form) ?? 'none';
  const options = useAction('as.m.goods.getGrantOptions', owner ? { musercode: owner } : {}, { enabled: kind !== 'none' });
  return (
    <>
      <Field name="grantkind" extra={kind === 'none' ? undefined : k(`grantHelp.${kind}`)}>
        <Select
          options={grantKinds.map((g) => ({ value: g, label: k(`grants.${g}`) }))}
          style={{ width: 180 }}
          data-testid="goods-grantkind"
        />
      </Field>
      {kind === 'course' && (
        <Field name="grantcourseid" getValueProps={noneChosen} required rules={[{ required: true, message: k('grantCourseRequired') }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={options.isLoading}
            notFoundContent={noOptions(options, k('noCourses'))}
            options={(options.data?.courses ?? []).map((c) => ({
              value: c.courseid,
              label: c.enabled ? c.title : `${c.title} ${k('courseOff')}`,
            }))}
            data-testid="goods-grant-course"
          />
        </Field>
      )}
      {kind === 'plan' && (
        <Field name="grantplancode" getValueProps={noneChosen} required rules={[{ required: true, message: k('grantPlanRequired') }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={options.isLoading}
            notFoundContent={noOptions(options, k('noPlans'))}
            options={(options.data?.plans ?? []).map((p) => ({
              value: p.plancode,
              label: t('common.bracketed', { text: p.planname, detail: p.own ? k('planOwn') : k('planLeft', { n: p.remaining }) }),
            }))}
            data-testid="goods-grant-plan"
          />
        </Field>
      )}
    </>
  );
}
