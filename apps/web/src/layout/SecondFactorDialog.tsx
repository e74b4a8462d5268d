import { useState } from 'react';
import { Alert, App as AntApp, Button, Divider, Input, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { Enrolment } from '@xinli/contract';
import { call } from '../api';
import type { StoredUser } from '../auth/storage';
import { ErrorState, LoadingState } from '../components/list';
import { useAction } from '../components/query';
import { useT } from '../i18n/useT';

const STATUS = 'as.m.secondFactor.getStatus';

/** What the caller is doing in the dialog besides looking: enrolling, or confirming a change with a code. */
type Step =
  | { kind: 'view' }
  | { kind: 'enrol'; enrolment: Enrolment }
  | { kind: 'confirm'; what: 'renew' | 'disable' }
  | { kind: 'codes'; codes: string[] };

/**
 * The account menu's two-step verification (issue 30 §1): set it up (QR code, first code, the ten
 * recovery codes shown once), renew the recovery codes or turn it off (each with a current code),
 * and, for the account itself, the rule it sets for the accounts below it.
 */
export default function SecondFactorDialog({ open, user, onClose }: { open: boolean; user: StoredUser; onClose: () => void }) {
  const k = useT('shell.secondFactor');
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const acting = !!user.actingas;
  const status = useAction(STATUS, {}, { enabled: open && !acting });
  const [step, setStep] = useState<Step>({ kind: 'view' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: [STATUS] });
  /** Runs a call; a refusal has had its message shown by the request client. */
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setStep({ kind: 'view' });
    setCode('');
    onClose();
  };

  const begin = () => run(async () => setStep({ kind: 'enrol', enrolment: await call('as.m.secondFactor.begin', {}) }));
  const confirmEnrol = () =>
    run(async () => {
      const { recoverycodes } = await call('as.m.secondFactor.confirm', { code });
      void message.success(k('turnedOn'));
      setCode('');
      setStep({ kind: 'codes', codes: recoverycodes });
      await refresh();
    });
  const confirmChange = (what: 'renew' | 'disable') =>
    run(async () => {
      if (what === 'renew') {
        const { recoverycodes } = await call('as.m.secondFactor.renewRecoveryCodes', { code });
        void message.success(k('renewed'));
        setStep({ kind: 'codes', codes: recoverycodes });
      } else {
        await call('as.m.secondFactor.disable', { code });
        void message.success(k('turnedOff'));
        setStep({ kind: 'view' });
      }
      setCode('');
      await refresh();
    });
  const setPolicy = (required: boolean) =>
    run(async () => {
      await call('as.m.secondFactor.setPolicy', { required });
      void message.success(k('policySaved'));
      await refresh();
    });

  const codeInput = (onEnter: () => void) => (
    <Input
      autoFocus
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="000000"
      value={code}
      onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
      onPressEnter={() => code.length === 6 && onEnter()}
      style={{ width: 160 }}
      data-testid="second-factor-code"
    />
  );

  const s = status.data;
  const policyLabel = user.roles.includes('admin')
    ? k('policySuper')
    : user.musertype === '005'
      ? k('policyProvider')
      : k('policyInstitution');

  const body = () => {
    if (acting) return <Alert type="info" showIcon title={k('acting')} />;
    if (!s) return status.error ? <ErrorState error={status.error} onRetry={() => void status.refetch()} /> : <LoadingState />;
    if (step.kind === 'codes') {
      return (
        <>
          <Typography.Title level={5}>{k('recoveryTitle')}</Typography.Title>
          <Typography.Paragraph type="secondary">{k('recoveryShown')}</Typography.Paragraph>
          <ol className="second-factor-codes" data-testid="recovery-codes">
            {step.codes.map((c) => (
              <li key={c}>
                <Typography.Text code>{c}</Typography.Text>
              </li>
            ))}
          </ol>
          <Typography.Text copyable={{ text: step.codes.join('\n'), tooltips: [k('copy'), k('copied')] }}>{k('copy')}</Typography.Text>
        </>
      );
    }
    if (step.kind === 'enrol') {
      return (
        <>
          <Typography.Paragraph>{k('scan')}</Typography.Paragraph>
          <Space align="start" size={16} wrap>
            <img src={step.enrolment.qr} alt={k('title')} width={180} height={180} data-testid="enrol-qr" data-uri={step.enrolment.uri} />
            <Space orientation="vertical">
              <Typography.Text code copyable data-testid="enrol-secret">
                {step.enrolment.secret}
              </Typography.Text>
              {codeInput(() => void confirmEnrol())}
              <Button
                type="primary"
                loading={busy}
                disabled={code.length !== 6}
                onClick={() => void confirmEnrol()}
                data-testid="second-factor-turn-on"
              >
                {k('turnOn')}
              </Button>
            </Space>
          </Space>
        </>
      );
    }
    return (
      <>
        <Space wrap>
          {s.enrolled ? <Tag color="green">{k('on')}</Tag> : <Tag>{k('off')}</Tag>}
          {s.required && <Tag color="orange">{k('required')}</Tag>}
        </Space>
        <Typography.Paragraph style={{ marginTop: 12 }}>{k('intro')}</Typography.Paragraph>
        {!s.enrolled && (
          <Button type="primary" loading={busy} onClick={() => void begin()} data-testid="second-factor-set-up">
            {k('setUp')}
          </Button>
        )}
        {s.enrolled && step.kind === 'view' && (
          <>
            <Typography.Paragraph type="secondary">{k('recoveryLeft', { count: s.recoveryleft })}</Typography.Paragraph>
            <Space wrap>
              <Button onClick={() => setStep({ kind: 'confirm', what: 'renew' })} data-testid="second-factor-renew">
                {k('renew')}
              </Button>
              <Button
                danger
                disabled={s.required}
                title={s.required ? k('cannotTurnOff') : undefined}
                onClick={() => setStep({ kind: 'confirm', what: 'disable' })}
                data-testid="second-factor-turn-off"
              >
                {k('turnOff')}
              </Button>
            </Space>
          </>
        )}
        {step.kind === 'confirm' && (
          <Space orientation="vertical">
            <Typography.Text>{k('codeToConfirm')}</Typography.Text>
            <Space wrap>
              {codeInput(() => void confirmChange(step.what))}
              <Button
                type="primary"
                danger={step.what === 'disable'}
                loading={busy}
                disabled={code.length !== 6}
                onClick={() => void confirmChange(step.what)}
                data-testid="second-factor-confirm"
              >
                {k(step.what === 'renew' ? 'renew' : 'turnOff')}
              </Button>
            </Space>
          </Space>
        )}
        {s.policy && (
          <>
            <Divider />
            <Typography.Title level={5}>{k('policyTitle')}</Typography.Title>
            <Space align="start">
              <Switch
                checked={s.policy.required}
                loading={busy}
                onChange={(v) => void setPolicy(v)}
                aria-label={policyLabel}
                data-testid="second-factor-policy"
              />
              <span>{policyLabel}</span>
            </Space>
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {k('policyNote')}
            </Typography.Paragraph>
          </>
        )}
      </>
    );
  };

  return (
    <Modal
      open={open}
      title={k('title')}
      onCancel={close}
      footer={
        <Button type="primary" onClick={close} data-testid="second-factor-done">
          {k('done')}
        </Button>
      }
      destroyOnHidden
      width={560}
      data-testid="second-factor"
    >
      {body()}
    </Modal>
  );
}
