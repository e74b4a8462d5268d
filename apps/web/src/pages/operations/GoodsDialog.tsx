import { useState } from 'react';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { orderActions, grantKinds, MAX_PRICE_FEN, type GoodsRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { FilePreview, UploadButton } from '../../components/upload';
import { toFen } from './money';

interface GoodsForm {
  musercode?: string;
  goodsname: string;
  coverfileid: string;
  description: string;
  priceyuan: number;
  stock: number;
  grantkind: (typeof grantKinds)[number];
  grantname: string;
}

/** Create or change goods: name, cover, description, price (yuan here, fen on the wire), stock and what a purchase grants. */
export default function GoodsDialog({ open, item, onClose }: { open: boolean; item: GoodsRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`operations.goods.${key}`);
  const institutions = useInstitutions();
  const [form] = Form.useForm<GoodsForm>();
  const [cover, setCover] = useState<string | null>(null);
  const owner = Form.useWatch('musercode', form) ?? item?.musercode;
  const coverUrl = cover ?? (item?.coverurl || null);
  const values: Partial<GoodsForm> = item
    ? {
        goodsname: item.goodsname,
        coverfileid: item.coverfileid,
        description: item.description,
        priceyuan: item.price / 100,
        stock: item.stock,
        grantkind: item.grantkind,
        grantname: item.grantname,
      }
    : { coverfileid: '', description: '', priceyuan: 0, stock: 100, grantkind: 'none', grantname: '' };
  const body = (v: GoodsForm) => ({
    goodsname: v.goodsname,
    coverfileid: v.coverfileid ?? '',
    description: v.description ?? '',
    price: toFen(v.priceyuan),
    stock: v.stock ?? 0,
    grantkind: v.grantkind ?? 'none',
    grantname: v.grantname ?? '',
  });
  return (
    <FormDialog<GoodsForm>
      open={open}
      editing={!!item}
      action={orderActions[item ? 'as.m.goods.updateGoods' : 'as.m.goods.insertGoods']}
      resource="operations.goods"
      form={form}
      values={values}
      width={640}
      invalidates={['as.m.goods.getGoodsPage', 'as.m.access.getFilePage']}
      onSubmit={(v) =>
        item
          ? call('as.m.goods.updateGoods', { goodsid: item.goodsid, ...body(v) })
          : call('as.m.goods.insertGoods', { ...(v.musercode ? { musercode: v.musercode } : {}), ...body(v) })
      }
      onClose={() => {
        setCover(null);
        onClose();
      }}
      data-testid="goods-dialog"
    >
      {!item && institutions.many && (
        <Field name="musercode">
          <InstitutionSelect allowClear />
        </Field>
      )}
      <Field name="goodsname">
        <Input data-testid="goods-name" />
      </Field>
      <Field name="coverfileid">
        <CoverField url={coverUrl} musercode={owner} onPicked={setCover} label={k(coverUrl ? 'coverChange' : 'coverPick')} />
      </Field>
      <Field name="priceyuan" label={k('priceyuan')} rules={[{ required: true, message: k('priceRequired') }]}>
        <InputNumber min={0} max={MAX_PRICE_FEN / 100} precision={2} prefix="¥" style={{ width: 180 }} data-testid="goods-price" />
      </Field>
      <Field name="stock">
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: 180 }} data-testid="goods-stock" />
      </Field>
      <Field name="grantkind">
        <Select options={grantKinds.map((g) => ({ value: g, label: k(`grants.${g}`) }))} style={{ width: 180 }} />
      </Field>
      <Field name="grantname">
        <Input placeholder={k('grantnamePlaceholder')} />
      </Field>
      <Field name="description">
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
      </Field>
    </FormDialog>
  );
}

function CoverField({
  onChange,
  url,
  musercode,
  onPicked,
  label,
}: {
  value?: string;
  onChange?: (v: string) => void;
  url: string | null;
  musercode?: string;
  onPicked: (url: string) => void;
  label: string;
}) {
  return (
    <div className="article-cover-input">
      {url && <FilePreview file={{ url, filename: '', contenttype: 'image/png' }} height={96} />}
      <UploadButton
        use="image"
        musercode={musercode}
        testId="goods-cover"
        onUploaded={(f) => {
          onPicked(f.url);
          onChange?.(f.fileid);
        }}
      >
        {label}
      </UploadButton>
    </div>
  );
}
