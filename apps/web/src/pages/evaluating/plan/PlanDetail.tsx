import { App, Button, Card, Descriptions, Drawer, Empty, Space, Table, Tag, Timeline, Typography } from 'antd';
import { KeyOutlined, StarFilled } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PlanRow } from '@xinli/contract';
import { call } from '../../../api';
import { Waiting } from '../../../components/list';
import { useAction } from '../../../components/query';
import { TextlessAlert, TextlessTag } from '../../../components/textless';
import { useT } from '../../../i18n/useT';

type AuthRow = {
  authid: string;
  musercode: string;
  insname: string;
  count: number;
  usedcount: number;
  startdate: string;
  enddate: string;
  status: 'pending' | 'active' | 'expired';
};
const STATUS_COLOUR = { pending: 'blue', active: 'green', expired: 'default' } as const;

/** A plan's header, its stages with their scales, its loose scales and its authorisations. */
export default function PlanDetail({
  plan,
  onClose,
  onAuthorize,
}: {
  plan: PlanRow | null;
  onClose: () => void;
  onAuthorize: (p: PlanRow) => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const plancode = plan?.plancode ?? '';
  const stages = useAction('as.m.exam.plan.getPlanStage', { plancode }, { enabled: !!plan });
  const forms = useAction('as.m.exam.plan.getPlanForm', { plancode }, { enabled: !!plan });
  const auths = useAction('as.m.exam.plan.getPlanAuthorizeList', { plancode, page: 1, pageSize: 200 }, { enabled: !!plan });
  const k = useT('evaluating.plans');
  const loose = (forms.data ?? []).filter((f) => !f.stagecode);
  const textless = (forms.data ?? []).filter((f) => f.textless).map((f) => f.formname);
  /** A form's tag, marked when it has no item text. */
  const formTag = (f: { formcode: string; formname: string; textless: boolean }) => (
    <Space key={f.formcode} size={2} style={{ marginInlineEnd: 8, marginBottom: 4 }} data-testid={`plan-form-${f.formcode}`}>
      <Tag style={{ marginInlineEnd: 0 }}>{f.formname}</Tag>
      {f.textless && <TextlessTag />}
    </Space>
  );

  const revoke = (row: AuthRow) =>
    modal.confirm({
      title: t('common.systemPrompt'),
      content: k('revokeConfirm', { name: row.insname }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await call('as.m.exam.plan.revokePlanAuthorize', { authid: row.authid });
        message.success(t('common.done'));
        await queryClient.invalidateQueries({ queryKey: ['as.m.exam.plan.getPlanAuthorizeList'] });
      },
    });

  return (
    <Drawer
      open={!!plan}
      onClose={onClose}
      size={820}
      title={plan ? k('detail', { name: plan.planname }) : ''}
      destroyOnHidden
      data-testid="plan-detail"
    >
      {plan && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            bordered
            size="small"
            column={2}
            items={[
              {
                key: 'name',
                label: k('planname'),
                children: (
                  <Space>
                    {plan.iscommon === 1 && <StarFilled style={{ color: '#f5a623' }} />}
                    {plan.planname}
                  </Space>
                ),
              },
              { key: 'code', label: k('plancode'), children: plan.plancode },
              { key: 'app', label: k('appid'), children: <Tag color="green">{plan.appname}</Tag> },
              { key: 'owner', label: k('owner'), children: plan.insname },
              { key: 'desc', label: k('description'), span: 2, children: plan.description || '—' },
            ]}
          />
          <TextlessAlert names={textless} />
          <Card size="small" title={k('stages')}>
            {!stages.data ? (
              <Waiting query={stages} />
            ) : stages.data.length === 0 ? (
              <Typography.Text type="secondary">{k('noStage')}</Typography.Text>
            ) : (
              <Timeline
                items={stages.data.map((s) => ({
                  key: s.stagecode,
                  content: (
                    <div>
                      <Space>
                        <strong>{s.stagename}</strong>
                        <Typography.Text type="secondary">{s.categoryname}</Typography.Text>
                      </Space>
                      <div style={{ marginTop: 4 }}>
                        {s.forms.map(formTag)}
                      </div>
                    </div>
                  ),
                }))}
              />
            )}
          </Card>
          <Card size="small" title={k('looseForms')}>
            {loose.length === 0 ? (
              <Typography.Text type="secondary">—</Typography.Text>
            ) : (
              loose.map(formTag)
            )}
          </Card>
          <Card
            size="small"
            title={k('authorizations')}
            extra={
              plan.editable && (
                <Button size="small" type="primary" icon={<KeyOutlined />} onClick={() => onAuthorize(plan)}>
                  {k('authorize')}
                </Button>
              )
            }
          >
            <Table<AuthRow>
              size="small"
              rowKey="authid"
              pagination={false}
              loading={auths.isLoading}
              dataSource={auths.data?.rows ?? []}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
              columns={[
                { title: k('institution'), key: 'ins', render: (_, r) => t('common.bracketed', { text: r.insname, detail: r.musercode }) },
                { title: k('count'), key: 'count', width: 110, render: (_, r) => `${r.usedcount} / ${r.count}` },
                { title: k('validity'), key: 'validity', width: 200, render: (_, r) => `${r.startdate} ~ ${r.enddate}` },
                {
                  title: t('common.status'),
                  dataIndex: 'status',
                  key: 'status',
                  width: 90,
                  render: (s: AuthRow['status']) => <Tag color={STATUS_COLOUR[s]}>{k(`authStatus.${s}`)}</Tag>,
                },
                ...(plan.editable
                  ? [
                      {
                        title: t('common.actions'),
                        key: 'a',
                        width: 80,
                        render: (_: unknown, r: AuthRow) => (
                          <Button type="link" size="small" danger onClick={() => revoke(r)}>
                            {k('revoke')}
                          </Button>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}
