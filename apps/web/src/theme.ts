import type { ThemeConfig } from 'antd';

/** SPEC §9: theme colour #43a777. */
export const PRIMARY = '#43a777';

export const theme: ThemeConfig = {
  token: { colorPrimary: PRIMARY, colorLink: PRIMARY, borderRadius: 6 },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px' },
    Menu: { itemBorderRadius: 6, subMenuItemBg: 'transparent', itemSelectedBg: '#e6f4ec', itemSelectedColor: '#2b8a5c', itemHoverBg: '#f2f8f5' },
  },
};
