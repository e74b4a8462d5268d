import { Descriptions, Drawer, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RegistrationSources, RegistrationStates, type RegistrationDetail } from '@xinli/contract';
import { useAction } from '../../components/query';
import { DetailTable, Waiting } from '../../components/list';
import { formatTime } from '../../lib/format';
import { useLang, useLocalText } from '../../lib/options';
import { STATE_COLOURS } from './questions';
import { useT } from '../../i18n/useT';

type Answer = RegistrationDetail['answers'][number];

/** One registration: who, which form (and version), its state and the answers in words. */
export default function RegistrationDrawer({ regid, onClose, actions }: { regid: string | null; onClose: () => void; actions: (r: RegistrationDetail) => React.ReactNode }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const lang = useLang();
  const k = useT('registration.registration');
  const q = useAction('as.m.registration.getRegistration', { regid: regid ?? '' }, { enabled: !!regid });
  const r = q.data;
  const label = <V extends string>(list: { value: V; zh: string; en: string }[], v: V) => {
    const item = list.find((i) => i.value === v);
    return item ? (lang === 'en-US' ? item.en : item.zh) : v;
  };
  return (
    <Drawer open={!!regid} onClose={onClose} size={720} title={k('title')} destroyOnHidden data-testid="registration-drawer" extra={r ? actions(r) : null}>
      {!r ? (
        <Waiting query={q} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, md: 2 }}
            items={[
              { key: 'name', label: k('realname'), children: r.realname },
              { key: 'phone', label: k('phone'), children: r.phone || '—' },
              { key: 'ins', label: k('insname'), children: r.insname },
              { key: 'state', label: k('state'), children: <Tag color={STATE_COLOURS[r.state]}>{label(RegistrationStates, r.state)}</Tag> },
              { key: 'form', label: k('formname'), children: `${r.formname} (v${r.version})` },
              { key: 'source', label: k('source'), children: label(RegistrationSources, r.source) },
              { key: 'time', label: k('createdat'), children: formatTime(r.createdat) },
              { key: 'person', label: k('matched'), children: r.cusercode ? t('common.yes') : k('notMatched') },
            ]}
          />
          <Typography.Title level={5} style={{ margin: 0 }}>
            {k('answers')}
          </Typography.Title>
          <DetailTable<Answer>
            bordered
            rowKey="no"
            dataSource={r.answers}
            columns={[
              { title: '#', dataIndex: 'no', key: 'no', width: 48 },
              { title: k('question'), key: 'question', render: (_, a) => text(a.question) },
              { title: k('answer'), dataIndex: 'answer', key: 'answer', render: (v: string) => v || <Typography.Text type="secondary">{k('unanswered')}</Typography.Text> },
            ]}
            data-testid="registration-answers"
          />
        </Space>
      )}
    </Drawer>
  );
}
