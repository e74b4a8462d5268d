import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { languages, setLanguage, type Language } from '../../i18n';
import { Icon } from './icons';

/**
 * The sign-in page's language switch: a menu button (WAI-ARIA menu pattern) like the navbar's
 * antd Dropdown, in plain HTML. The choice is kept in a cookie (i18n/index.ts).
 */
export default function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const current = languages.find((l) => l.value === i18n.language) ?? languages[0];

  // Focus the chosen language when the menu opens; close on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLElement>('[aria-current="true"]')?.focus();
    const away = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (lang: Language) => {
    close();
    void setLanguage(lang);
  };
  const onMenuKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape' || e.key === 'Tab') close();
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };

  return (
    <div className="login-lang-menu" ref={box}>
      <button
        ref={button}
        type="button"
        className="login-lang-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('shell.navbar.language')}
        data-testid="language-switch"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown') return;
          e.preventDefault();
          setOpen(true);
        }}
      >
        <Icon icon={GlobalOutlined} /> {current.label}
      </button>
      {open && (
        <ul role="menu" aria-label={t('shell.navbar.language')} className="login-lang-list" onKeyDown={onMenuKey}>
          {languages.map((l) => (
            <li
              key={l.value}
              role="menuitem"
              tabIndex={-1}
              aria-current={l.value === current.value}
              className={l.value === current.value ? 'is-current' : undefined}
              onClick={() => choose(l.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                choose(l.value);
              }}
            >
              {l.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
