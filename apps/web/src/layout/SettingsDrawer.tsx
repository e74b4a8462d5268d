import { Drawer, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LayoutSettings } from './prefs';
import { useT } from '../i18n/useT';

const rows: (keyof LayoutSettings)[] = ['tagsView', 'topMenu', 'fixedHeader', 'sidebarLogo'];

/** The display settings panel; each switch is saved at once. */
export default function SettingsDrawer({ open, settings, onChange, onClose }: { open: boolean; settings: LayoutSettings; onChange: (p: Partial<LayoutSettings>) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('shell.settings');
  return (
    <Drawer open={open} onClose={onClose} title={t('shell.settings.title')} size={300} data-testid="settings-drawer">
      {rows.map((key) => (
        <label key={key} className="settings-row">
          <span>{k(key)}</span>
          <Switch checked={settings[key]} onChange={(v) => onChange({ [key]: v })} data-testid={`setting-${key}`} />
        </label>
      ))}
    </Drawer>
  );
}
