import { useState } from 'react';
import { Button, Card, Col, Descriptions, Empty, Image, Result, Row, Space, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, EditOutlined, FlagOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Gender } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Can, useAccess } from '../../components/access';
import { Waiting } from '../../components/list';
import { formatTime } from '../../lib/format';
import { useEnumOptions, useLocalText } from '../../lib/options';
import { regionOr } from '../../components/archive-form/RegionText';
import { pagesOf } from '../../lib/populations';
import GiveDialog, { type GivePerson } from '../../features/reports/GiveDialog';
import FlagDialog from '../../features/warnings/FlagDialog';
import { caseLink } from '../../features/links';
import PersonDialog from '../../features/persons/PersonDialog';
import PersonRights, { AnonymisedTag } from '../../features/persons/PersonRights';
import PersonPlans from './PersonPlans';
import PersonReports from './PersonReports';
import './archives.css';
import { useT } from '../../i18n/useT';
import { PersonConsentCard, useConsentWithdrawn } from '../../features/consent/consent-ui';

/** The consent signature the person drew on the respondent page. */
function Signature({ cusercode }: { cusercode: string }) {
  const { t } = useTranslation();
  const q = useAction('as.m.cuser.getSignaturePicture', { cusercode });
  const sig = q.data;
  const src = sig ? (sig.signature.startsWith('data:') ? sig.signature : `data:image/png;base64,${sig.signature}`) : '';
  return (
    <Card size="small" title={t('archives.archive.signature')} loading={q.isLoading} data-testid="archive-signature">
      {sig ? (
        <Space orientation="vertical">
          <Image src={src} width={240} height={120} className="archive-signature" alt={t('archives.archive.signature')} />
          <Typography.Text type="secondary">{formatTime(sig.signedat)}</Typography.Text>
        </Space>
      ) : (
        <Typography.Text type="secondary">{t('archives.archive.noSignature')}</Typography.Text>
      )}
    </Card>
  );
}

/**
 * One person's whole archive (archivesyh1..4, ?cusercode=): details, the archive form's answers,
 * the consent signature, the assessments given, and every report over time with a trend chart
 * per indicator.
 */
export default function ArchiveDetail() {
  const { t } = useTranslation();
  const text = useLocalText();
  const navigate = useNavigate();
  const genders = useEnumOptions(Gender);
  const [params] = useSearchParams();
  const cusercode = params.get('cusercode') ?? '';
  const k = useT('archives.archive');
  const [editing, setEditing] = useState(false);
  const [give, setGive] = useState<GivePerson[]>([]);
  const [flagging, setFlagging] = useState(false);
  const { can } = useAccess();
  const q = useAction('as.m.cuser.getCUserArchive', { cusercode }, { enabled: !!cusercode });
  const consentText = useT('archives.consent');
  const withdrawn = useConsentWithdrawn(cusercode);
  if (!cusercode) return <Result status="info" title={k('missing')} />;
  if (!q.data) return <Waiting query={q} />;
  const { person, columns, display, reports } = q.data;
  const back = pagesOf(person.appid)?.archives ?? '/archives/archives_gl_all';
  return (
    <div className="archive-detail" data-testid="archive-detail">
      <Card
        size="small"
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate(back)} aria-label={k('back')} />
            <span data-testid="archive-name">{person.realname}</span>
            <AnonymisedTag person={person} />
            <Typography.Text type="secondary">{person.appname}</Typography.Text>
          </Space>
        }
        extra={
          <Space wrap>
            {/* An anonymised person is a record kept for statistics: nothing more is given, flagged or edited. */}
            {!person.anonymisedat && (
              <>
                <Can action="as.m.user.insertCUserAssessCode">
                  <Tooltip title={withdrawn ? consentText('noGive') : undefined}>
                    <Button type="primary" disabled={withdrawn} onClick={() => setGive([person])} data-testid="archive-give-plan">
                      {k('give')}
                    </Button>
                  </Tooltip>
                </Can>
                <Can action="as.m.warning.flagPerson">
                  <Button icon={<FlagOutlined />} onClick={() => setFlagging(true)} data-testid="archive-flag">
                    {t('earlyWarning.case.flag')}
                  </Button>
                </Can>
                <Can action="as.m.cuser.updateCUser">
                  <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                    {t('common.edit')}
                  </Button>
                </Can>
              </>
            )}
            <PersonRights person={person} />
          </Space>
        }
      >
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'code', label: t('archives.person.cusercode'), children: person.cusercode },
            {
              key: 'gender',
              label: t('archives.person.gender'),
              children: genders.find((g) => g.value === person.gender)?.label ?? person.gender,
            },
            { key: 'birth', label: t('archives.person.birthdate'), children: person.birthdate || '—' },
            { key: 'phone', label: t('archives.person.phonenumber'), children: person.phonenumber || '—' },
            { key: 'id', label: t('archives.person.idcard'), children: person.idcard || '—' },
            { key: 'ins', label: t('archives.person.insname'), children: person.insname },
            { key: 'created', label: t('archives.person.createdat'), children: formatTime(person.createdat) },
            { key: 'count', label: k('reportCount'), children: reports.length },
          ]}
        />
      </Card>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} xl={16}>
          <Card size="small" title={k('answers')} data-testid="archive-answers">
            {columns.length === 0 || Object.keys(display).length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noAnswers')} />
            ) : (
              <Descriptions
                size="small"
                bordered
                column={{ xs: 1, lg: 2 }}
                items={columns.map((c) => ({ key: c.key, label: text(c.title), children: regionOr(c, display[c.key]) }))}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Signature cusercode={cusercode} />
            <PersonConsentCard cusercode={cusercode} />
          </Space>
        </Col>
        <Col span={24}>
          <PersonReports reports={reports} />
        </Col>
        <Col span={24}>
          <Can action="as.m.cuser.getCUserPlan">
            <PersonPlans cusercode={cusercode} />
          </Can>
        </Col>
      </Row>
      <PersonDialog open={editing} person={person} onClose={() => setEditing(false)} />
      <GiveDialog persons={give} appid={person.appid} onClose={() => setGive([])} />
      <FlagDialog
        person={flagging ? person : null}
        onClose={() => setFlagging(false)}
        onFlagged={(caseid) => can('as.m.warning.getCasePageList') && navigate(caseLink(caseid))}
      />
    </div>
  );
}
