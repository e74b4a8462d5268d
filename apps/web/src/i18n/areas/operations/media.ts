import { defineArea } from '../../area';

/** Words the music and cloud-classroom pages share: operations.media.* */
export default defineArea({
  zh: { allApps: '本机构全部应用' },
  en: { allApps: 'All of the institution’s apps' },
});
