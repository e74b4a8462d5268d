/**
 * The crisis warnings of an education bureau (issue 28): its district's cases as totals per
 * level, per state and per school, from as.m.warning.getCaseSummary. A bureau oversees schools
 * it does not run: each school handles its cases by name, the district sees how many, and a
 * count too small to be anonymous arrives withheld (null) and reads "<5".
 */
import { useState } from 'react';
import { Alert, Card, Col, Form, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionInput, CaseSummary } from '@xinli/contract';
import { useAction } from '../../components/query';
import ChartCard from '../../components/charts/ChartCard';
import { DetailTable, f, FilterFields, SearchForm, type FilterDef } from '../../components/list';
import { fromFormValues } from '../../components/list/filters';
import { useT } from '../../i18n/useT';

const SUMMARY = 'as.m.warning.getCaseSummary';
const DEFS: FilterDef[] = [f.institution('musercode', { source: 'stats' }), f.dateRange('dateRange', ['startdate', 'enddate'])];

/** The words of the district view, and a count as shown (withheld: "<5"). */
export function useDistrictWords() {
  const { t } = useTranslation();
  const d = useT('earlyWarning.district');
  const count = (n: number | null | undefined, min: number) => (n === null ? d('small', { min }) : (n ?? 0).toLocaleString());
  return { d, count, t };
}

/** The district's case totals under an input (the Datastatisticst page shows them too). */
export function useCaseSummary(input: ActionInput<typeof SUMMARY>) {
  return useAction(SUMMARY, input, { staleTime: 30_000 });
}

function Tile({ title, value, testId, tone }: { title: string; value: string; testId: string; tone?: string }) {
  return (
    <Card size="small" data-testid={testId}>
      <Statistic title={title} value={value} styles={{ content: tone ? { color: tone } : undefined }} />
    </Card>
  );
}

export default function DistrictCases() {
  const { d, count, t } = useDistrictWords();
  const k = useT('earlyWarning.case');
  const [form] = Form.useForm();
  const [input, setInput] = useState<ActionInput<typeof SUMMARY>>({});
  const q = useCaseSummary(input);
  const s: CaseSummary | undefined = q.data;
  const min = s?.mincell ?? 5;
  const c = (n: number | null | undefined) => count(n, min);
  const level = (l: 'critical' | 'attention') => s?.bylevel.find((x) => x.level === l)?.count;
  return (
    <div className="district-page" data-testid="district-cases">
      <Alert type="info" showIcon title={d('scope', { min })} data-testid="district-scope" />
      <Card size="small">
        <SearchForm
          form={form}
          onSearch={(v) => setInput(fromFormValues(DEFS, v) as ActionInput<typeof SUMMARY>)}
          onReset={() => setInput({})}
        >
          <FilterFields defs={DEFS} resource="earlyWarning.case" />
        </SearchForm>
      </Card>
      <ChartCard title={d('summary')} state={q} empty={s?.total === 0} emptyText={d('none')} testId="district-summary" height={120}>
        <Row gutter={[12, 12]}>
          <Col xs={12} md={6}>
            <Tile testId="district-total" title={d('total')} value={c(s?.total)} />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="district-critical" title={t('earlyWarning.case.levels.critical')} value={c(level('critical'))} tone="#9b1c1c" />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="district-attention" title={t('earlyWarning.case.levels.attention')} value={c(level('attention'))} />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="district-followups" title={d('followups')} value={c(s?.followups)} />
          </Col>
          {(s?.bystate ?? []).map((x) => (
            <Col xs={12} md={6} key={x.state}>
              <Tile testId={`district-state-${x.state}`} title={k(`states.${x.state}`)} value={c(x.count)} />
            </Col>
          ))}
        </Row>
      </ChartCard>
      <ChartCard title={d('bySchool')} state={q} empty={!s?.byschool.length} emptyText={d('none')} testId="district-schools" height={120}>
        <DetailTable<CaseSummary['byschool'][number]>
          rowKey="musercode"
          size="small"
          pageSize={10}
          dataSource={s?.byschool}
          data-testid="district-school-table"
          columns={[
            { title: d('insname'), dataIndex: 'insname', width: 220, ellipsis: true },
            { title: d('schoolTotal'), dataIndex: 'total', width: 90, align: 'right', render: (v: number | null) => c(v) },
            { title: d('critical'), dataIndex: 'critical', width: 90, align: 'right', render: (v: number | null) => c(v) },
            { title: d('open'), dataIndex: 'open', width: 90, align: 'right', render: (v: number | null) => c(v) },
          ]}
        />
      </ChartCard>
    </div>
  );
}
