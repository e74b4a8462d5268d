/**
 * The sandbox payment provider's cashier (cashier.html, served at /pay/sandbox/cashier only when the
 * server runs PAYMENT_PROVIDER=sandbox): a page of the provider's, not of the shop. It shares the
 * respondent pages' look and tiny i18n; it calls no action of the shop, only the sandbox's own
 * POST /pay/sandbox/pay, which sends the shop the signed callback a real provider would.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../respondent/respondent.css';
import { CashierPage } from './CashierPage';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CashierPage />
  </StrictMode>,
);
