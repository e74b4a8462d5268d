/**
 * The big screen (/echarts/web without a report; the navbar's big-screen button opens it in a new
 * tab): a dark full-screen dashboard for a wall display, outside the main layout. The same
 * statistics actions and figures as the console (the caller's whole scope, or the statistics
 * filter fields given in the URL), refreshed every minute, with the time the data was loaded.
 * Elderly-care institutions (type 004) see their older adults, as on statisticsN.
 */
import { useEffect, useState } from 'react';
import { Button, ConfigProvider, theme as antTheme, Typography } from 'antd';
import { ArrowLeftOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PopulationApp } from '@xinli/contract';
import { useSession } from '../../auth';
import { theme } from '../../theme';
import { Figures } from '../../features/stats/Dashboard';
import { DayTrendCard, GenderCard, GradeRatioCard, MoodCard, SceneTrendCard, showsClasses } from '../../features/stats/StatCards';
import { statsFilterOf } from '../../features/stats/stats-filter';
import { STAT } from '../../features/stats/stats-ui';
import { useAction } from '../../components/query';
import '../../features/stats/stats.css';
import './bigscreen.css';
import { formatTime } from '../../lib/format';
import { useT } from '../../i18n/useT';

/** SPEC-free wall rule: the data is fetched again every minute. */
export const REFRESH_MS = 60_000;

/** The wall clock in the institution's zone, like every other time in the console. */
const clock = (d: Date) => formatTime(d.toISOString(), true);

/** The chart height that fills half of what the header and figures leave of the window. */
function useChartHeight() {
  const calc = () => Math.max(170, Math.floor((window.innerHeight - 300) / 2) - 56);
  const [h, setH] = useState(calc);
  useEffect(() => {
    const on = () => setH(calc());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

export default function BigScreen() {
  const { t } = useTranslation();
  const k = useT('echarts.screen');
  const { session } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const elderly = session?.user.musertype === '004';
  const filter = statsFilterOf(Object.fromEntries(params), elderly ? { appid: PopulationApp.olderAdults } : {});
  const height = useChartHeight();
  const o = { filter, dark: true, height, refetchInterval: REFRESH_MS };
  // The same query as the reports figure (shared cache): its time is when the data was loaded.
  const reports = useAction('as.m.assess.getAssessCount', filter, { ...STAT, refetchInterval: REFRESH_MS });
  const loaded = reports.dataUpdatedAt ? clock(new Date(reports.dataUpdatedAt)) : '—';
  const classes = !elderly && showsClasses(filter);
  useEffect(() => {
    document.title = `${k('title')} - ${t('shell.appTitle')}`;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t]);
  return (
    <ConfigProvider
      theme={{
        ...theme,
        algorithm: antTheme.darkAlgorithm,
        token: { ...theme.token, colorBgContainer: 'rgba(9, 32, 66, 0.78)', colorBorderSecondary: 'rgba(64, 158, 255, 0.28)' },
      }}
    >
      <div className={`wall${elderly ? ' wall-elderly' : ''}`} data-testid="big-screen">
        <header className="wall-header">
          <div className="wall-side">
            <Button type="text" icon={<ArrowLeftOutlined />} className="wall-back" onClick={() => navigate('/')} data-testid="wall-back">
              {k('back')}
            </Button>
          </div>
          <div className="wall-title">
            <h1>{k(elderly ? 'titleN' : 'title')}</h1>
            <Typography.Text className="wall-sub" data-testid="wall-insname">
              {session?.user.insname}
            </Typography.Text>
          </div>
          <div className="wall-side wall-time" data-testid="wall-loaded" data-loaded={reports.dataUpdatedAt || undefined}>
            <span className="wall-time-label">
              <SyncOutlined spin={reports.isFetching} /> {k('loaded')}
            </span>
            <span className="wall-time-value">{loaded}</span>
            <span className="wall-time-label">{k('every')}</span>
          </div>
        </header>
        <Figures filter={filter} variant={elderly ? 'elderly' : 'general'} refetchInterval={REFRESH_MS} />
        <div className="wall-grid">
          <div className="wall-a">
            <MoodCard kind="depressed" {...o} />
          </div>
          <div className="wall-b">
            <DayTrendCard {...o} />
          </div>
          <div className="wall-c">
            <GenderCard {...o} />
          </div>
          <div className="wall-d">
            <MoodCard kind="anxious" {...o} />
          </div>
          <div className="wall-e">
            <SceneTrendCard {...o} title={elderly ? t('statistics.dashboard.monthTrend') : undefined} />
          </div>
          {classes && (
            <div className="wall-f">
              <GradeRatioCard {...o} />
            </div>
          )}
        </div>
      </div>
    </ConfigProvider>
  );
}
