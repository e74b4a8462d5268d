import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles/global.css';
import App from './App';
import { consumeHandoff } from './auth/acting';

// A login-as tab takes its session before anything reads one (auth/acting.ts).
consumeHandoff();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
