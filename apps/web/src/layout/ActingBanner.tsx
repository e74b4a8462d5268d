import { useState } from 'react';
import { Alert, Button } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actingInfo, leaveActing } from '../auth/acting';

/** The banner of a login-as tab: who acts as which institution, and the way back (auth/acting.ts). */
export default function ActingBanner() {
  const { t } = useTranslation();
  const [info] = useState(actingInfo);
  const [leaving, setLeaving] = useState(false);
  if (!info) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      className="acting-banner"
      data-testid="acting-banner"
      title={t('shell.acting.banner', { actor: info.actor, insname: info.insname })}
      action={
        <Button
          size="small"
          type="primary"
          danger
          icon={<LogoutOutlined />}
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            void leaveActing();
          }}
          data-testid="acting-leave"
        >
          {t('shell.acting.leave')}
        </Button>
      }
    />
  );
}
