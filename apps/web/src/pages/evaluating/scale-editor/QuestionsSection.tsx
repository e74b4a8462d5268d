import { useRef } from 'react';
import {
  Button,
  Card,
  Dropdown,
  Empty,
  Form,
  Input,
  InputNumber,
  Pagination,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { InputType, QuestionType } from '@xinli/contract';
import { useEnumOptions, useLocalText } from '../../../lib/options';
import {
  deleteQuestion,
  isScored,
  moveQuestion,
  newOption,
  newQuestion,
  NUMERIC_INPUT_TYPES,
  pageOfQuestion,
  QUESTIONS_PER_PAGE,
  type EditorValues,
  type OptionValues,
  type QuestionValues,
} from './editorState';
import { useFormValue } from './useFormValue';
import { RemoveRowButton } from '../../../components/form';
import { useT } from '../../../i18n/useT';
import type { KeyOf } from '../../../i18n/keys';

/** Common answer scales, so a 20-item Likert scale is not typed option by option. */
/** A preset's name is its message key: every `preset…` key (but the menu's title) has its options, and no other. */
type Preset = Exclude<Extract<KeyOf<'evaluating.editor.questions'>, `preset${string}`>, 'presets'>;
const PRESETS: Record<Preset, [string, string, number][]> = {
  preset03: [
    ['完全不会', 'Not at all', 0],
    ['好几天', 'Several days', 1],
    ['一半以上的天数', 'More than half the days', 2],
    ['几乎每天', 'Nearly every day', 3],
  ],
  preset14: [
    ['没有或很少时间', 'A little of the time', 1],
    ['小部分时间', 'Some of the time', 2],
    ['相当多时间', 'A good part of the time', 3],
    ['绝大部分或全部时间', 'Most or all of the time', 4],
  ],
  preset15: [
    ['没有', 'Not at all', 1],
    ['很轻', 'A little bit', 2],
    ['中等', 'Moderately', 3],
    ['偏重', 'Quite a bit', 4],
    ['严重', 'Extremely', 5],
  ],
  presetYesNo: [
    ['是', 'Yes', 1],
    ['否', 'No', 0],
  ],
};

const presetOptions = (key: Preset): OptionValues[] => PRESETS[key].map(([zh, en, score]) => ({ text: { zh, en }, score }));

interface QuestionsSectionProps {
  readOnly: boolean;
  /** The page of cards shown (1-based); the drawer keeps it, so a failed check can show an item. */
  page: number;
  onPage: (page: number) => void;
}

/** The item list: one card per question, numbered by position, a page of cards at a time. */
export default function QuestionsSection({ readOnly, page, onPage }: QuestionsSectionProps) {
  const form = Form.useFormInstance<EditorValues>();
  // Only the count: typing inside one item must not re-render every card.
  const count = useFormValue((v) => v.questions?.length) ?? 0;
  const k = useT('evaluating.editor.questions');
  // After a delete the page asked for may be past the end.
  const shown = Math.min(page, pageOfQuestion(Math.max(count - 1, 0)));
  const first = (shown - 1) * QUESTIONS_PER_PAGE;
  const top = useRef<HTMLDivElement>(null);

  const add = (type: 0 | 1 | 2) => {
    const list = (form.getFieldValue('questions') as QuestionValues[]) ?? [];
    form.setFieldValue('questions', [...list, newQuestion(type)]);
    onPage(pageOfQuestion(list.length));
  };
  /** Whole-form rewrites: moving or deleting renumbers what refers to question numbers. */
  const rewrite = (f: (v: EditorValues) => EditorValues) => {
    const next = f(form.getFieldsValue(true) as EditorValues);
    form.setFieldsValue({ questions: next.questions, indicators: next.indicators, critical: next.critical });
  };

  return (
    <div className="scale-editor-section" ref={top}>
      <div className="scale-editor-bar">
        <Typography.Text type="secondary">{k('count', { count })}</Typography.Text>
        {!readOnly && (
          <Space wrap>
            <Button icon={<PlusOutlined />} onClick={() => add(1)} data-testid="add-single">
              {k('addSingle')}
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => add(2)}>
              {k('addMultiple')}
            </Button>
            <Button icon={<PlusOutlined />} onClick={() => add(0)}>
              {k('addFill')}
            </Button>
          </Space>
        )}
      </div>
      {count === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('empty')} />}
      {Array.from({ length: Math.min(QUESTIONS_PER_PAGE, count - first) }, (_, i) => first + i).map((index) => (
        <QuestionCard
          key={index}
          index={index}
          count={count}
          readOnly={readOnly}
          onMove={(to) => {
            rewrite((v) => moveQuestion(v, index, to));
            onPage(pageOfQuestion(to));
          }}
          onDelete={() => rewrite((v) => deleteQuestion(v, index))}
        />
      ))}
      <Pagination
        size="small"
        current={shown}
        pageSize={QUESTIONS_PER_PAGE}
        total={count}
        hideOnSinglePage
        showSizeChanger={false}
        showTotal={(_, [from, to]) => k('shown', { from, to })}
        onChange={(next) => {
          onPage(next);
          // The pager sits below the cards: the next page is read from its first item.
          top.current?.scrollIntoView({ block: 'start' });
        }}
        align="end"
        className="question-pager"
        data-testid="question-pager"
      />
    </div>
  );
}

interface QuestionCardProps {
  index: number;
  count: number;
  readOnly: boolean;
  onMove: (to: number) => void;
  onDelete: () => void;
}

function QuestionCard({ index, count, readOnly, onMove, onDelete }: QuestionCardProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const q = useFormValue((v) => v.questions?.[index]) as QuestionValues | undefined;
  const factors =
    useFormValue((v) => (v.indicators ?? []).filter((i) => i.kind === 'factor' && i.code).map((i) => ({ code: i.code, name: i.name }))) ??
    [];
  const types = useEnumOptions(QuestionType);
  const text = useLocalText();
  const k = useT('evaluating.editor.questions');
  const no = index + 1;
  const path = (...rest: (string | number)[]) => ['questions', index, ...rest];

  const changeType = (type: 0 | 1 | 2) => {
    const current = form.getFieldValue(['questions', index]) as QuestionValues;
    // Switching to fill-in drops the options; switching to a choice type brings a default set back.
    const options = type === 0 ? [] : current.options.length ? current.options : newQuestion(type).options;
    form.setFieldValue(['questions', index], {
      ...current,
      type,
      options,
      inputtype: type === 0 ? (current.inputtype ?? 0) : null,
      reverse: type === 0 ? false : current.reverse,
    });
  };

  const header = (
    <Space wrap size={12}>
      <Tag color="#43a777" className="question-no">
        {k('title', { no })}
      </Tag>
      <Form.Item name={path('type')} noStyle>
        <Select options={types} style={{ width: 150 }} onChange={changeType} aria-label={k('type')} size="small" />
      </Form.Item>
      <Space size={4}>
        <span className="field-caption">{k('required')}</span>
        <Form.Item name={path('required')} valuePropName="checked" noStyle>
          <Switch size="small" />
        </Form.Item>
      </Space>
      {q && isScored(q) && (
        <Tooltip title={k('reverseHelp')}>
          <Space size={4}>
            <span className="field-caption">{k('reverse')}</span>
            <Form.Item name={path('reverse')} valuePropName="checked" noStyle>
              <Switch size="small" data-testid={`q${no}-reverse`} />
            </Form.Item>
          </Space>
        </Tooltip>
      )}
      {q && !isScored(q) && <Tag>{k('notScored')}</Tag>}
      {factors.length > 0 && q && isScored(q) && (
        <Form.Item name={path('factor')} noStyle>
          <Select
            size="small"
            allowClear
            placeholder={k('factorNone')}
            style={{ minWidth: 140 }}
            aria-label={k('factor')}
            options={factors.map((f) => ({ value: f.code, label: `${f.code} ${text(f.name)}`.trim() }))}
            data-testid={`q${no}-factor`}
          />
        </Form.Item>
      )}
    </Space>
  );

  const extra = readOnly ? null : (
    <Space size={0}>
      <Tooltip title={t('common.moveUp')}>
        <Button
          type="text"
          size="small"
          icon={<ArrowUpOutlined />}
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
          aria-label={t('common.moveUp')}
        />
      </Tooltip>
      <Tooltip title={t('common.moveDown')}>
        <Button
          type="text"
          size="small"
          icon={<ArrowDownOutlined />}
          disabled={index === count - 1}
          onClick={() => onMove(index + 1)}
          aria-label={t('common.moveDown')}
        />
      </Tooltip>
      <Popconfirm title={k('deleteConfirm', { no })} onConfirm={onDelete} okText={t('common.confirm')} cancelText={t('common.cancel')}>
        <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
      </Popconfirm>
    </Space>
  );

  return (
    <Card size="small" className="question-card" title={header} extra={extra} data-testid={`question-${no}`}>
      <div className="question-texts">
        <Form.Item
          name={path('text', 'zh')}
          rules={[{ required: true, whitespace: true, message: t('evaluating.editor.required.textZh') }]}
          className="grow"
        >
          <Input.TextArea rows={1} className="fits-content" placeholder={k('textZh')} maxLength={1000} data-testid={`q${no}-text`} />
        </Form.Item>
        <Form.Item name={path('text', 'en')} className="grow">
          <Input.TextArea rows={1} className="fits-content" placeholder={k('textEn')} maxLength={1000} />
        </Form.Item>
      </div>
      {q?.type === 0 ? (
        <FillInFields index={index} numeric={NUMERIC_INPUT_TYPES.includes(q.inputtype ?? 0)} />
      ) : (
        <OptionList index={index} readOnly={readOnly} />
      )}
    </Card>
  );
}

function FillInFields({ index, numeric }: { index: number; numeric: boolean }) {
  const inputTypes = useEnumOptions(InputType);
  const k = useT('evaluating.editor.questions');
  return (
    <Space wrap align="start">
      <Form.Item name={['questions', index, 'inputtype']} label={k('inputtype')} style={{ marginBottom: 0 }}>
        <Select options={inputTypes} style={{ width: 200 }} />
      </Form.Item>
      {numeric && (
        <Form.Item label={k('range')} style={{ marginBottom: 0 }}>
          <Space.Compact>
            <Form.Item name={['questions', index, 'rangeMin']} noStyle>
              <InputNumber placeholder={k('rangeMin')} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name={['questions', index, 'rangeMax']} noStyle>
              <InputNumber placeholder={k('rangeMax')} style={{ width: 110 }} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      )}
    </Space>
  );
}

function OptionList({ index, readOnly }: { index: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<EditorValues>();
  const k = useT('evaluating.editor.questions');
  const no = index + 1;
  return (
    <Form.List name={['questions', index, 'options']}>
      {(fields, { add, remove }) => (
        <div className="option-list">
          {fields.map((field, i) => (
            <div className="option-row" key={field.key}>
              <span className="option-pos">{String.fromCharCode(65 + (i % 26))}</span>
              <Form.Item
                name={[field.name, 'text', 'zh']}
                rules={[{ required: true, whitespace: true, message: t('evaluating.editor.required.optionText') }]}
                className="grow"
              >
                <Input placeholder={k('optionText')} maxLength={500} data-testid={`q${no}-opt${i + 1}-text`} />
              </Form.Item>
              <Form.Item name={[field.name, 'text', 'en']} className="grow">
                <Input placeholder={k('optionTextEn')} maxLength={500} />
              </Form.Item>
              <Form.Item name={[field.name, 'score']} rules={[{ required: true, message: t('evaluating.editor.required.score') }]}>
                <InputNumber placeholder={k('score')} style={{ width: 90 }} data-testid={`q${no}-opt${i + 1}-score`} />
              </Form.Item>
              {!readOnly && <RemoveRowButton onClick={() => remove(field.name)} disabled={fields.length <= 2} />}
            </div>
          ))}
          {!readOnly && (
            <Space>
              <Button
                size="small"
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add(newOption(fields.length))}
                disabled={fields.length >= 50}
              >
                {k('addOption')}
              </Button>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: (Object.keys(PRESETS) as Preset[]).map((key) => ({ key, label: k(key) })),
                  onClick: ({ key }) => form.setFieldValue(['questions', index, 'options'], presetOptions(key as Preset)),
                }}
              >
                <Button size="small" type="link" data-testid={`q${no}-presets`}>
                  {k('presets')} <DownOutlined />
                </Button>
              </Dropdown>
            </Space>
          )}
        </div>
      )}
    </Form.List>
  );
}
