import { createHmac } from 'node:crypto';

/**
 * The outbound channel of warning notifications (webhook by default; an SMS or e-mail adapter
 * implements the same interface). What is sent carries no name or phone: ids, the level and a
 * link to the case in the console, where staff sign in to see who it is.
 */
export interface OutboundMessage {
  kind: 'critical' | 'escalated';
  caseid: string;
  musercode: string;
  level: 'critical' | 'attention';
  link: string;
  at: string;
}

export interface OutboundChannel {
  readonly name: string;
  send(message: OutboundMessage): Promise<void>;
}

/** The signature header: HMAC-SHA256 of the exact body with WARNING_WEBHOOK_SECRET, hex. */
export const SIGNATURE_HEADER = 'x-xinli-signature';

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs the message as JSON; any answer but 2xx (or no answer within the timeout) is a failure to retry. */
export function webhookChannel(url: string, secret: string, timeoutMs = 10_000): OutboundChannel {
  return {
    name: 'webhook',
    async send(message) {
      const body = JSON.stringify(message);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, secret) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`webhook answered ${res.status}`);
    },
  };
}

/** The configured channel, or none (notifications then stay in the console). */
export function channelFromConfig(cfg: { warningWebhookUrl?: string; warningWebhookSecret?: string }): OutboundChannel | null {
  return cfg.warningWebhookUrl ? webhookChannel(cfg.warningWebhookUrl, cfg.warningWebhookSecret ?? '') : null;
}
