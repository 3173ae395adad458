import { createHmac } from 'node:crypto';
import type { HttpRequest } from './http-request.js';
import type { Alert } from './types.js';

/** Where the alert happened: named in every payload. */
export interface AlertOrigin {
  readonly platform: string;
  readonly environment: string;
  readonly cluster: string;
  readonly overlay: string;
}

/** The header carrying the body's HMAC-SHA256, as `sha256=<hex>` (the form GitHub's webhooks use). */
export const SIGNATURE_HEADER = 'X-Groundwork-Signature';

/** `sha256=<hex>` of `body` under `key`. A receiver compares it in constant time with its own. */
export function signature(body: string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

/**
 * The generic webhook request: a JSON body (format `groundwork.io/alert/v1`), signed when a key
 * is given, with the delivery id (the same on every retry, so a receiver can drop repeats) and the
 * event as headers.
 */
export function webhookRequest(
  url: string,
  alert: Alert,
  origin: AlertOrigin,
  delivery: { id: string; at: string; signingKey?: string },
): HttpRequest {
  const body = JSON.stringify({
    format: 'groundwork.io/alert/v1',
    id: delivery.id,
    at: delivery.at,
    event: alert.event,
    severity: alert.severity,
    key: alert.key,
    summary: alert.summary,
    ...origin,
    ...(alert.revision ? { revision: alert.revision } : {}),
    ...(alert.reason ? { reason: alert.reason } : {}),
    ...(alert.objects ? { objects: alert.objects } : {}),
  });
  return {
    method: 'POST',
    url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'groundwork-agent',
      'X-Groundwork-Event': alert.event,
      'X-Groundwork-Delivery': delivery.id,
      ...(delivery.signingKey ? { [SIGNATURE_HEADER]: signature(body, delivery.signingKey) } : {}),
    },
    body,
  };
}

/** A Slack-compatible incoming webhook request (`{"text": ...}`, which Mattermost and Rocket.Chat accept too). */
export function slackRequest(url: string, alert: Alert, origin: AlertOrigin): HttpRequest {
  const icon =
    alert.severity === 'error' ? ':x:' : alert.severity === 'warning' ? ':warning:' : ':information_source:';
  const lines = [
    `${icon} *${alert.event}* ${origin.platform} ${origin.environment}/${origin.cluster}: ${escape(alert.summary)}`,
    ...(alert.revision ? [`revision \`${escape(alert.revision)}\``] : []),
    ...(alert.objects ?? []).map((o) => `• ${escape(o)}`),
  ];
  return {
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/json', 'User-Agent': 'groundwork-agent' },
    body: JSON.stringify({ text: lines.join('\n') }),
  };
}

/** Slack's three control characters (api.slack.com/reference/surfaces/formatting#escaping): text from the cluster cannot mention or link. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
