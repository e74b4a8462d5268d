import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Col, Form, Input, Row, Select, Space, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import {
  reportSections,
  reportTemplateActions,
  respondentParts,
  type ActionInput,
  type ReportSection,
  type TemplateBody,
  type TemplateRow,
} from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog, RemoveRowButton, RowList } from '../../components/form';
import OrderButtons from '../../components/OrderButtons';
import { UploadButton } from '../../components/upload';
import { LEVELS, useLevelLabel } from '../../components/levels';
import { EmptyState } from '../../components/list';
import { useT } from '../../i18n/useT';

type TemplateForm = ActionInput<'as.m.reportTemplate.insert'>;

const DEFAULTS: Partial<TemplateForm> = {
  sections: ['summary', 'indicators', 'norms', 'advice', 'trend', 'comments', 'signoff'],
  respondent: ['summary', 'indicators', 'bandtext'],
  bandtexts: [],
  logofileid: null,
};

/**
 * The template designer (issue 31 §4): header, forms, sections in order, the respondent's parts,
 * band texts and the sign-off on the left; on the right the A4 document the body makes for the
 * sample report or a chosen report, rendered by the server as it will print. Saving an existing
 * template makes a new version; reports already rendered keep theirs.
 */
export default function ReportTemplateDialog({ open, item, onClose }: { open: boolean; item: TemplateRow | null; onClose: () => void }) {
  const k = useT('empower.template');
  const [form] = Form.useForm<TemplateForm>();
  const detail = useAction('as.m.reportTemplate.get', { templateid: item?.templateid ?? '' }, { enabled: open && !!item });
  const record = item ? (detail.data ? detail.data.body : undefined) : null;
  return (
    <FormDialog<TemplateForm>
      open={open}
      editing={!!item}
      action={reportTemplateActions[item ? 'as.m.reportTemplate.update' : 'as.m.reportTemplate.insert']}
      resource="empower.template"
      form={form}
      record={record}
      defaults={DEFAULTS}
      load={item ? { loading: detail.isLoading, error: detail.error, retry: () => void detail.refetch() } : undefined}
      width={1240}
      invalidates={['as.m.reportTemplate.getPage', 'as.m.reportTemplate.get']}
      onSubmit={(v) =>
        item ? call('as.m.reportTemplate.update', { templateid: item.templateid, ...v }) : call('as.m.reportTemplate.insert', v)
      }
      onClose={onClose}
      data-testid="template-dialog"
    >
      <Row gutter={20} wrap={false} className="template-designer">
        <Col flex="460px" style={{ minWidth: 0, maxHeight: '70vh', overflowY: 'auto', paddingRight: 8 }}>
          <Field name="name">
            <Input data-testid="template-name" />
          </Field>
          <Field name="title" extra={k('titleHelp')}>
            <Input data-testid="template-title" />
          </Field>
          <Field name="headername" extra={k('headernameHelp')}>
            <Input data-testid="template-headername" />
          </Field>
          <Field name="logofileid" required={false}>
            <LogoInput />
          </Field>
          <FormsField />
          <Field name="sections" extra={k('sectionsHelp')}>
            <SectionsInput />
          </Field>
          <Field name="respondent" extra={k('respondentHelp')}>
            <Checkbox.Group
              options={respondentParts.map((p) => ({ value: p, label: k(`respondentNames.${p}`) }))}
              data-testid="template-respondent"
            />
          </Field>
          <BandTexts />
          <Field name="signoff" extra={k('signoffHelp')}>
            <Input data-testid="template-signoff" />
          </Field>
          {item && detail.data && (
            <>
              <Typography.Text strong>{k('versions')}</Typography.Text>
              <ul className="template-versions" data-testid="template-versions">
                {detail.data.versions.map((v) => (
                  <li key={v.version}>{k('versionRow', { version: v.version, at: v.createdat.slice(0, 10), count: v.reports })}</li>
                ))}
              </ul>
            </>
          )}
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Preview owner={item?.musercode} />
        </Col>
      </Row>
    </FormDialog>
  );
}

/** The forms of the template: any enabled form the caller may use. */
function FormsField() {
  const options = useAction('as.m.reportTemplate.getFormOptions', {});
  return (
    <Field name="formcodes">
      <Select
        mode="multiple"
        loading={options.isLoading}
        optionFilterProp="label"
        options={(options.data ?? []).map((f) => ({ value: f.formcode, label: f.formname }))}
        data-testid="template-forms"
      />
    </Field>
  );
}

/** The sections: every section once, the ticked ones first in their order. */
function SectionsInput({ value = [], onChange }: { value?: ReportSection[]; onChange?: (v: ReportSection[]) => void }) {
  const k = useT('empower.template');
  const rows = [...value, ...reportSections.filter((s) => !value.includes(s))];
  const toggle = (s: ReportSection, on: boolean) => onChange?.(on ? [...value, s] : value.filter((x) => x !== s));
  const move = (from: number, to: number) => {
    const next = [...value];
    const [s] = next.splice(from, 1);
    next.splice(to, 0, s!);
    onChange?.(next);
  };
  return (
    <ol className="template-sections" data-testid="template-sections">
      {rows.map((s) => {
        const at = value.indexOf(s);
        return (
          <li key={s}>
            <Checkbox checked={at >= 0} onChange={(e) => toggle(s, e.target.checked)} data-testid={`template-section-${s}`}>
              {k(`sectionNames.${s}`)}
            </Checkbox>
            {at >= 0 && (
              <span className="template-section-order">
                <OrderButtons index={at} count={value.length} onMove={move} small />
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The header logo: an image of the file store, uploaded here. */
function LogoInput({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  const k = useT('empower.template');
  const [shown, setShown] = useState<string | null>(null);
  return (
    <Space wrap>
      {value ? (
        shown ? (
          <img src={shown} alt="" style={{ height: 40, maxWidth: 140, objectFit: 'contain' }} />
        ) : (
          <Typography.Text>{value}</Typography.Text>
        )
      ) : (
        <Typography.Text type="secondary">{k('logoNone')}</Typography.Text>
      )}
      <UploadButton
        use="image"
        testId="template-logo"
        onUploaded={(f) => {
          setShown(f.url);
          onChange?.(f.fileid);
        }}
      >
        {k(value ? 'logoChange' : 'logoPick')}
      </UploadButton>
      {value && (
        <Button size="small" onClick={() => onChange?.(null)}>
          {k('logoRemove')}
        </Button>
      )}
    </Space>
  );
}

/** The template's own text per indicator band, the indicators being those of the chosen forms. */
function BandTexts() {
  const k = useT('empower.template');
  const levelLabel = useLevelLabel();
  const form = Form.useFormInstance<TemplateForm>();
  const chosen = Form.useWatch('formcodes', form) as string[] | undefined;
  const options = useAction('as.m.reportTemplate.getFormOptions', {});
  const indicators = useMemo(() => {
    const seen = new Map<string, string>();
    for (const f of options.data ?? [])
      if (chosen?.includes(f.formcode)) for (const i of f.indicators) if (!seen.has(i.code)) seen.set(i.code, `${i.name} (${i.code})`);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [options.data, chosen]);
  return (
    <Form.Item label={k('bandtexts')} extra={k('bandtextsHelp')}>
      <RowList
        name="bandtexts"
        addLabel={k('addBand')}
        newRow={() => ({ indicator: undefined, level: undefined, text: '' })}
        addTestId="template-band-add"
        row={(f, _, remove) => (
          <div key={f.key} className="template-band" data-testid="template-band">
            <Space.Compact block>
              <Form.Item name={[f.name, 'indicator']} noStyle rules={[{ required: true, message: k('indicator') }]}>
                <Select
                  style={{ width: '45%' }}
                  placeholder={k('indicator')}
                  options={indicators}
                  aria-label={k('indicator')}
                  data-testid="template-band-indicator"
                />
              </Form.Item>
              <Form.Item name={[f.name, 'level']} noStyle rules={[{ required: true, message: k('level') }]}>
                <Select
                  style={{ width: '40%' }}
                  placeholder={k('level')}
                  options={LEVELS.map((l) => ({ value: l, label: levelLabel(l) }))}
                  aria-label={k('level')}
                  data-testid="template-band-level"
                />
              </Form.Item>
              <RemoveRowButton onClick={() => remove(f.name)} />
            </Space.Compact>
            <Form.Item
              name={[f.name, 'text']}
              rules={[{ required: true, max: 1000, message: k('text') }]}
              style={{ marginTop: 4, marginBottom: 10 }}
            >
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 4 }}
                placeholder={k('text')}
                aria-label={k('text')}
                data-testid="template-band-text"
              />
            </Form.Item>
          </div>
        )}
      />
    </Form.Item>
  );
}

/** The server's rendering of the body being designed, for the sample report or a chosen report. */
function Preview({ owner }: { owner?: string }) {
  const k = useT('empower.template');
  const form = Form.useFormInstance<TemplateForm>();
  const [reportid, setReportid] = useState('');
  const [html, setHtml] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pane = useRef<HTMLDivElement>(null);
  const size = usePaneSize(pane);
  const refresh = async () => {
    const v = form.getFieldsValue(true) as TemplateForm;
    const body: TemplateBody = {
      name: v.name || '—',
      title: v.title ?? '',
      headername: v.headername ?? '',
      logofileid: v.logofileid ?? null,
      formcodes: v.formcodes ?? [],
      sections: v.sections?.length ? v.sections : ['summary'],
      respondent: v.respondent ?? [],
      bandtexts: (v.bandtexts ?? []).filter((b) => b.indicator && b.level !== undefined && b.text),
      signoff: v.signoff ?? '',
    };
    setBusy(true);
    try {
      setHtml(
        (
          await call('as.m.reportTemplate.preview', {
            body,
            ...(owner ? { musercode: owner } : {}),
            ...(reportid.trim() ? { reportid: reportid.trim() } : {}),
          })
        ).html,
      );
    } catch {
      // The request client showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="template-preview">
      <Space wrap style={{ marginBottom: 8 }}>
        <Input
          value={reportid}
          onChange={(e) => setReportid(e.target.value)}
          placeholder={k('previewSample')}
          addonBefore={k('previewReport')}
          style={{ width: 320 }}
          maxLength={40}
          data-testid="template-preview-report"
        />
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()} loading={busy} data-testid="template-preview-refresh">
          {k('previewRefresh')}
        </Button>
      </Space>
      <Alert type="info" showIcon message={k('previewReportHelp')} style={{ marginBottom: 8 }} />
      <div className="template-preview-pane" ref={pane}>
        {html ? (
          <iframe
            title={k('previewTitle')}
            srcDoc={html}
            sandbox=""
            className="template-preview-frame"
            // The A4 page (210 mm and its margins) shrunk to the pane's width, never clipped.
            style={{ width: PAGE_PX, height: size.height / size.zoom, zoom: size.zoom }}
            data-testid="template-preview"
          />
        ) : (
          <EmptyState description={k('previewEmpty')} />
        )}
      </div>
    </div>
  );
}

/** The document's width on screen: an A4 page (794 px) and the grey around it. */
const PAGE_PX = 840;

/** The preview pane's height and the zoom that fits the A4 page in its width. */
function usePaneSize(pane: React.RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ height: 480, zoom: 1 });
  useEffect(() => {
    const el = pane.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setSize({ height: el.clientHeight, zoom: Math.min(1, el.clientWidth / PAGE_PX) }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [pane]);
  return size;
}
