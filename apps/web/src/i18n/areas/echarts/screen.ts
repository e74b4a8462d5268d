import { defineArea } from '../../area';

/** The big screen (/echarts/web without a report, echarts.screen.*). */
export default defineArea({
  zh: {
    title: '心理健康测评数据大屏',
    titleN: '老年人心理健康测评数据大屏',
    loaded: '数据更新于',
    every: '每分钟自动刷新',
    back: '返回控制台',
  },
  en: {
    title: 'Mental health assessment wall',
    titleN: 'Older adults’ mental health wall',
    loaded: 'Data loaded at',
    every: 'Refreshed every minute',
    back: 'Back to console',
  },
});
