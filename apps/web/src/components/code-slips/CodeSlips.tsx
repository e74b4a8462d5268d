/**
 * Assessment codes as slips: per person the name, the code in large type, the link and its QR
 * code (drawn by the `qrcode` package). "Print" prints only the slips (the print rules in
 * code-slips.css hide the console around them), two to a row, each kept whole.
 */
import { useEffect, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { CopyOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { respondentLink } from '../../lib/respondent';
import './code-slips.css';

export interface CodeSlip {
  realname: string;
  assesscode: string;
  /** The respondent page's path the server gave for the code. */
  url: string;
  /** The plan or stage given, shown on the slip. */
  planname?: string;
  /** A task's sign-in PIN, drawn for this printing (only the slip ever shows it). */
  pin?: string;
}

function QrImage({ text, size }: { text: string; size: number }) {
  const [src, setSrc] = useState<string>('');
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(text, { width: size, margin: 1, errorCorrectionLevel: 'M' }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [text, size]);
  return src ? (
    <img src={src} width={size} height={size} alt={text} data-testid="code-qr" />
  ) : (
    <div style={{ width: size, height: size }} />
  );
}

export default function CodeSlips({ slips }: { slips: CodeSlip[] }) {
  const { t } = useTranslation();
  const copy = (text: string) => void navigator.clipboard?.writeText(text);
  return (
    <div className="code-slips-root">
      <Space className="code-slips-toolbar">
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="code-print">
          {t('empower.assess.print')}
        </Button>
        <Typography.Text type="secondary">{t('empower.assess.printHint', { count: slips.length })}</Typography.Text>
      </Space>
      <div className="code-slips">
        {slips.map((s) => {
          const link = respondentLink(s.url);
          return (
            <div className="code-slip" key={s.assesscode} data-testid="code-slip">
              <QrImage text={link} size={132} />
              <div className="code-slip-text">
                <div className="code-slip-name">{s.realname}</div>
                {s.planname && <div className="code-slip-plan">{s.planname}</div>}
                <div className="code-slip-label">{t('empower.assess.assesscode')}</div>
                <div className="code-slip-code" data-testid="assess-code">
                  {s.assesscode}
                </div>
                {s.pin && (
                  <>
                    <div className="code-slip-label">{t('empower.assess.pin')}</div>
                    <div className="code-slip-pin" data-testid="slip-pin">
                      {s.pin}
                    </div>
                  </>
                )}
                <a className="code-slip-link" href={link} target="_blank" rel="noreferrer">
                  {link}
                </a>
                <Button size="small" type="link" icon={<CopyOutlined />} className="code-slip-copy" onClick={() => copy(link)}>
                  {t('empower.assess.copyLink')}
                </Button>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
