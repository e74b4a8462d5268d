/**
 * The shop when no payment provider is configured (PAYMENT_PROVIDER=none, issue 27 item 3): goods are
 * listed, nothing can be ordered, and the page says so in the buyer's language.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { setLang } from '../i18n';
import { ShopScreen } from './ShopScreens';

vi.mock('../api', async (actual) => ({
  ...(await actual<typeof import('../api')>()),
  call: vi.fn(async () => ({
    insname: '滨江一中',
    title: '',
    ordering: false,
    rows: [{ goodsid: 'GD1', goodsname: '咨询', coverurl: '', description: '', price: 1990, stock: 3, grantkind: 'none', grantname: '' }],
  })),
}));

afterEach(cleanup);

describe('shop without a payment provider', () => {
  for (const [lang, text] of [
    ['zh-CN', '本机构暂未开通在线支付，商品暂不能下单。'],
    ['en-US', 'Online payment is not available here yet, so nothing can be ordered.'],
  ] as const)
    it(`lists the goods but offers no purchase (${lang})`, async () => {
      setLang(lang);
      render(<ShopScreen entrytoken={'E'.repeat(20)} />);
      expect((await screen.findByTestId('r-no-payment')).textContent).toBe(text);
      expect(screen.getByText('咨询')).toBeTruthy();
      expect(screen.queryByTestId('r-buy-GD1')).toBeNull();
    });
});
