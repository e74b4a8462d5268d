/**
 * The respondent pages' entry (respondent.html): its own small bundle, no antd, no ECharts, no
 * i18next. The server answers /a/<code> and /r/<entry token> with this page.
 */
import '../lib/zod-config'; // first: before any chunk holding zod is evaluated
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './respondent.css';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
