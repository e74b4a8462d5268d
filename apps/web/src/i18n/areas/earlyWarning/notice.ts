import { defineArea } from '../../area';

/** The navbar's warning notifications (earlyWarning.notice.*). Never a person's name. */
export default defineArea({
  zh: {
    bell: '预警通知',
    unread: '{{count}} 条未读',
    empty: '暂无通知',
    markAll: '全部已读',
    viewAll: '查看全部预警',
    openCase: '查看个案',
    newCritical: '新的危急预警',
    kinds: { critical: '危急预警', escalated: '超时未确认' },
    loadFailed: '通知加载失败',
  },
  en: {
    bell: 'Warning notifications',
    unread: '{{count}} unread',
    empty: 'No notifications',
    markAll: 'Mark all read',
    viewAll: 'All warnings',
    openCase: 'Open the case',
    newCritical: 'New critical warning',
    kinds: { critical: 'Critical warning', escalated: 'Not acknowledged in time' },
    loadFailed: 'Notifications could not be loaded',
  },
});
