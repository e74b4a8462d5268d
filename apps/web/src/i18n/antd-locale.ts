import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import type { Language } from './index';

/** antd follows the console language (date pickers, pagination, empty states, modals). */
export const antdLocale = (lang: Language) => (lang === 'en-US' ? enUS : zhCN);
