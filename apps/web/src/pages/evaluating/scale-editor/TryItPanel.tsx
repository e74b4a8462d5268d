import { useMemo, useState } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Empty, Input, Radio, Space, Table, Tag, Typography } from 'antd';
import { AlertOutlined, CalculatorOutlined, ClearOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AnswerInput, FormDefinition, IndicatorResult, QuestionDefinition, ScoreResult } from '@xinli/contract';
import { LevelTag, MentalStateTag } from '../../../components/levels';
import { useLocalText } from '../../../lib/options';
import { sheetToAnswers, type SheetValues } from './editorState';
import { useT } from '../../../i18n/useT';

export interface TryItPanelProps {
  /** The saved definition the server scores against; null when the scale was never saved. */
  definition: FormDefinition | null;
  /** The editor has changes the server does not know yet. */
  dirty?: boolean;
  /** Scores a sheet without storing it (as.m.assess.forms.previewScore). */
  score: (answers: AnswerInput[]) => Promise<ScoreResult>;
}

/** Option positions with the lowest / highest forward score (reverse-scored items flip on the server). */
function extremePosition(q: QuestionDefinition, want: 'min' | 'max'): number {
  let best = 0;
  q.options.forEach((o, i) => {
    const cur = q.options[best].score;
    if (want === 'min' ? o.score < cur : o.score > cur) best = i;
  });
  return best + 1;
}

function fillSheet(questions: QuestionDefinition[], how: 'min' | 'max' | 'random'): SheetValues {
  const sheet: SheetValues = {};
  for (const q of questions) {
    if (q.type === 0) {
      if (q.range)
        sheet[q.no] = {
          text: String(
            how === 'min'
              ? q.range.min
              : how === 'max'
                ? q.range.max
                : Math.round(q.range.min + Math.random() * (q.range.max - q.range.min)),
          ),
        };
      continue;
    }
    const pos = how === 'random' ? 1 + Math.floor(Math.random() * q.options.length) : extremePosition(q, how);
    sheet[q.no] = q.type === 1 ? { option: pos } : { options: [pos] };
  }
  return sheet;
}

/**
 * The 'try it' panel: an answer sheet for the saved definition and the score the server gives
 * it (indicator scores, band colours, levels, texts, the overall mental state and warnings).
 */
export default function TryItPanel({ definition, dirty, score }: TryItPanelProps) {
  const text = useLocalText();
  const [sheet, setSheet] = useState<SheetValues>({});
  const [result, setResult] = useState<ScoreResult | null>(null);
  const [busy, setBusy] = useState(false);
  const k = useT('evaluating.tryIt');
  const questions = useMemo(() => [...(definition?.questions ?? [])].sort((a, b) => a.no - b.no), [definition]);
  const answered = sheetToAnswers(questions, sheet).length;

  if (!definition) return <Alert type="info" showIcon title={k('notSaved')} />;

  const set = (no: number, value: SheetValues[string]) => setSheet((s) => ({ ...s, [no]: value }));
  const run = async () => {
    setBusy(true);
    try {
      setResult(await score(sheetToAnswers(questions, sheet)));
    } catch {
      // The request client has shown the server's message (e.g. a required item unanswered).
      setResult(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="try-it">
      <Alert type={dirty ? 'warning' : 'info'} showIcon title={dirty ? k('unsavedWarning') : k('intro')} style={{ marginBottom: 12 }} />
      <div className="try-it-columns">
        <Card
          size="small"
          className="try-it-sheet"
          title={
            <Space>
              {k('title')}
              <Typography.Text type="secondary">{k('answered', { answered, total: questions.length })}</Typography.Text>
            </Space>
          }
          extra={
            <Space size={4} wrap>
              <Button size="small" onClick={() => setSheet(fillSheet(questions, 'min'))}>
                {k('fillMin')}
              </Button>
              <Button size="small" onClick={() => setSheet(fillSheet(questions, 'max'))} data-testid="try-fill-max">
                {k('fillMax')}
              </Button>
              <Button size="small" onClick={() => setSheet(fillSheet(questions, 'random'))}>
                {k('fillRandom')}
              </Button>
              <Button size="small" icon={<ClearOutlined />} onClick={() => (setSheet({}), setResult(null))}>
                {k('clear')}
              </Button>
            </Space>
          }
        >
          {questions.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noQuestions')} />}
          <ol className="try-it-questions">
            {questions.map((q) => (
              <li key={q.no} data-testid={`try-q${q.no}`}>
                <div className="try-it-q">
                  {q.required && <span className="required-mark">*</span>}
                  {text(q.text)}
                </div>
                <AnswerInputFor q={q} value={sheet[q.no]} onChange={(v) => set(q.no, v)} placeholder={k('fillText')} optionText={text} />
              </li>
            ))}
          </ol>
          <Button type="primary" icon={<CalculatorOutlined />} loading={busy} onClick={run} block data-testid="try-score">
            {busy ? k('scoring') : k('score')}
          </Button>
        </Card>
        <div className="try-it-result">
          {result ? <ResultView result={result} /> : <Empty description={k('result')} image={Empty.PRESENTED_IMAGE_SIMPLE} />}
        </div>
      </div>
    </div>
  );
}

function AnswerInputFor(props: {
  q: QuestionDefinition;
  value: SheetValues[string];
  onChange: (v: SheetValues[string]) => void;
  placeholder: string;
  optionText: (t: { zh: string; en: string }) => string;
}) {
  const { t } = useTranslation();
  const { q, value, onChange, placeholder, optionText } = props;
  const options = q.options.map((o, i) => ({ value: i + 1, label: t('common.bracketed', { text: optionText(o.text), detail: o.score }) }));
  if (q.type === 1)
    return <Radio.Group options={options} value={value?.option} onChange={(e) => onChange({ option: e.target.value as number })} />;
  if (q.type === 2)
    return <Checkbox.Group options={options} value={value?.options ?? []} onChange={(v) => onChange({ options: v as number[] })} />;
  return (
    <Input
      size="small"
      style={{ maxWidth: 260 }}
      placeholder={placeholder}
      value={value?.text ?? ''}
      onChange={(e) => onChange({ text: e.target.value })}
    />
  );
}

function ResultView({ result }: { result: ScoreResult }) {
  const text = useLocalText();
  const k = useT('evaluating.tryIt');
  const indicatorName = (code: string | undefined) => {
    const ind = result.indicators.find((i) => i.code === code);
    return ind ? text(ind.name) : (code ?? '');
  };
  const columns = [
    { title: k('indicator'), key: 'name', render: (_: unknown, r: IndicatorResult) => <span>{text(r.name)}</span> },
    { title: k('raw'), dataIndex: 'raw', key: 'raw', align: 'right' as const },
    { title: k('finalScore'), dataIndex: 'score', key: 'score', align: 'right' as const, render: (s: number) => <strong>{s}</strong> },
    {
      title: k('band'),
      key: 'band',
      render: (_: unknown, r: IndicatorResult) =>
        r.level === null ? (
          <Typography.Text type="secondary">{k('noBand')}</Typography.Text>
        ) : (
          <LevelTag level={r.level} colour={r.colour} label={text(r.label)} />
        ),
    },
    { title: k('level'), dataIndex: 'level', key: 'level', align: 'center' as const, render: (l: number | null) => (l === null ? '—' : l) },
  ];
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="try-result">
      {result.voided && <Alert type="error" showIcon title={k('voided')} description={text(result.voidReason)} />}
      <Descriptions
        size="small"
        bordered
        column={1}
        items={[{ key: 'state', label: k('mentalState'), children: <MentalStateTag state={result.mentalState} /> }]}
      />
      <Table<IndicatorResult>
        size="small"
        bordered
        rowKey="code"
        pagination={false}
        columns={columns}
        dataSource={result.indicators}
        expandable={{
          rowExpandable: (r) => !!(text(r.interpretation) || text(r.advice)),
          expandedRowRender: (r) => (
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'i', label: k('interpretation'), children: text(r.interpretation) || '—' },
                { key: 'a', label: k('advice'), children: text(r.advice) || '—' },
              ]}
            />
          ),
          defaultExpandAllRows: true,
        }}
      />
      <Card
        size="small"
        title={
          <Space>
            <AlertOutlined />
            {k('warnings')}
          </Space>
        }
        data-testid="try-warnings"
      >
        {result.warnings.length === 0 ? (
          <Typography.Text type="secondary">{k('noWarning')}</Typography.Text>
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            {result.warnings.map((w, i) => (
              <Alert
                key={i}
                type="error"
                showIcon
                data-testid="try-warning"
                title={
                  <Space>
                    {w.source === 'critical'
                      ? k('warningCritical', { no: w.no })
                      : w.source === 'screening'
                        ? k('warningScreening', { level: k(w.warnlevel === 'critical' ? 'screeningCritical' : 'screeningAttention') })
                        : k('warningBand', { indicator: indicatorName(w.indicator) })}
                    {w.level !== undefined && <LevelTag level={w.level} />}
                  </Space>
                }
                description={text(w.reason)}
              />
            ))}
          </Space>
        )}
      </Card>
      {result.items.length > 0 && (
        <div className="try-it-items">
          <Typography.Text type="secondary">{k('itemScores')}</Typography.Text>
          {result.items.map((it) => (
            <Tag key={it.no}>
              {it.no}: {it.score}
            </Tag>
          ))}
        </div>
      )}
    </Space>
  );
}
