import { Button, Card, Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../components/query';
import { Can } from '../../components/access';
import { useConfirmCall, Waiting } from '../../components/list';
import { formatTime } from '../../lib/format';
import { respondentLink } from '../../lib/respondent';
import { useT } from '../../i18n/useT';

const STATUS_COLOURS = { issued: 'default', started: 'processing', finished: 'success' } as const;

/** The assessments given to a person: code, plan or stage, progress; an unused code can be withdrawn. */
export default function PersonPlans({ cusercode, onGive }: { cusercode: string; onGive?: () => void }) {
  const { t } = useTranslation();
  const k = useT('archives.archive');
  const confirm = useConfirmCall();
  const q = useAction('as.m.cuser.getCUserPlan', { cusercode });
  return (
    <Card
      size="small"
      title={k('plans')}
      extra={
        onGive && (
          <Can action="as.m.user.insertCUserAssessCode">
            <Button size="small" type="primary" onClick={onGive} data-testid="archive-give">
              {k('give')}
            </Button>
          </Can>
        )
      }
    >
      {/* Until the first answer, its error with a retry or the loading state: never "none given" for a read that failed. */}
      {!q.data ? (
        <Waiting query={q} />
      ) : (
        <Table
          size="small"
          bordered
          rowKey="assesscode"
          loading={q.isFetching}
          dataSource={q.data}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noPlans')} /> }}
          columns={[
            {
              title: t('empower.assess.assesscode'),
              dataIndex: 'assesscode',
              key: 'code',
              render: (v: string, r) => (
                <Typography.Text copyable={{ text: respondentLink(r.url) }} code>
                  {v}
                </Typography.Text>
              ),
            },
            {
              title: t('empower.assess.plancode'),
              key: 'plan',
              render: (_, r) => (r.stagename ? `${r.planname} · ${r.stagename}` : r.planname),
            },
            {
              title: t('common.status'),
              key: 'status',
              render: (_, r) => <Tag color={STATUS_COLOURS[r.status]}>{`${k(`status.${r.status}`)} ${r.donecount}/${r.formcount}`}</Tag>,
            },
            { title: t('common.createdat'), dataIndex: 'createdat', key: 'at', render: (v: string) => formatTime(v) },
            {
              title: t('common.actions'),
              key: 'a',
              render: (_, r) =>
                r.status !== 'finished' &&
                r.donecount === 0 && (
                  <Can action="as.m.cuser.deleteCUserPlan">
                    <a
                      onClick={() =>
                        void confirm({
                          action: 'as.m.cuser.deleteCUserPlan',
                          input: { assesscode: r.assesscode },
                          content: k('removePlanConfirm', { code: r.assesscode }),
                          invalidates: ['as.m.cuser.getCUserPlan'],
                        })
                      }
                    >
                      {k('removePlan')}
                    </a>
                  </Can>
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
