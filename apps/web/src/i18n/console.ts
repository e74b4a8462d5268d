/**
 * The console's part of i18n, loaded with it (App.tsx) and in component tests (test/setup.ts):
 * every message area (./areas/**) and dayjs's locale. i18n/index.ts itself holds only what the
 * sign-in page needs, so that page stays small as pages and their messages are added (bench/web).
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import i18n, { buildResources, currentLanguage, type AreaModule } from './index';

const areas = import.meta.glob<AreaModule>(['./areas/*.ts', './areas/*/*.ts'], { eager: true });

for (const [lng, { translation }] of Object.entries(buildResources(areas))) {
  // deep + overwrite: the shell area is there already and comes back unchanged.
  i18n.addResourceBundle(lng, 'translation', translation, true, true);
}

const dayjsLocale = () => dayjs.locale(currentLanguage() === 'en-US' ? 'en' : 'zh-cn');
dayjsLocale();
i18n.on('languageChanged', dayjsLocale);
