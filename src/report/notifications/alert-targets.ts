import { GroundworkError } from '../../core/errors.js';
import { urlProblem, type AlertEvent, type NotificationsConfig } from '../../project/notifications-config.js';
import { soakMs } from '../../project/environments.js';

/** An alert target ready to send to: its URL and key read from the Secret. */
export interface AlertTarget {
  readonly name: string;
  readonly type: 'webhook' | 'slack';
  readonly url: string;
  readonly signingKey?: string;
  /** undefined: every event. */
  readonly events?: readonly AlertEvent[];
}

/** The label a Secret must carry before the agent reads it for alerts: groundwork.yaml names the Secret, and is written by whoever can push. */
export const NOTIFICATIONS_LABEL = 'groundwork.io/notifications';

/**
 * The targets of `config` with their URLs and keys taken from the Secret's data (`secret`: its
 * labels and decoded data). Throws `NotificationSecretInvalid` when the Secret lacks the label or
 * a key, `InvalidNotificationUrl` when a URL from the Secret is not an http(s) URL without
 * credentials; messages name the Secret and key, never a value.
 */
export function alertTargets(
  config: NotificationsConfig,
  secret: { labels: Readonly<Record<string, string>>; data: Readonly<Record<string, string>> } | undefined,
): { targets: AlertTarget[]; dedupWindowMs: number } {
  const subject = `Secret ${config.secret}`;
  if (!secret)
    throw new GroundworkError({
      code: 'NotificationSecretInvalid',
      subject,
      message: 'not found in the agent namespace',
      fix: `create it with the keys groundwork.yaml names, labelled ${NOTIFICATIONS_LABEL}=true`,
    });
  if (secret.labels[NOTIFICATIONS_LABEL] !== 'true')
    throw new GroundworkError({
      code: 'NotificationSecretInvalid',
      subject,
      message: `not labelled ${NOTIFICATIONS_LABEL}=true: not read (groundwork.yaml may only name Secrets meant for alerts)`,
      fix: `kubectl label secret ${config.secret} ${NOTIFICATIONS_LABEL}=true`,
    });
  const value = (key: string, what: string): string => {
    const v = secret.data[key];
    if (v === undefined || v === '')
      throw new GroundworkError({
        code: 'NotificationSecretInvalid',
        subject,
        message: `has no key ${key} (${what})`,
        fix: `add the key ${key} to the Secret`,
      });
    return v.trim();
  };
  const targets = config.alerts.map((t): AlertTarget => {
    const url = t.url ?? value(t.urlKey!, `the URL of alert target ${t.name}`);
    const problem = urlProblem(url);
    if (problem)
      throw new GroundworkError({
        code: 'InvalidNotificationUrl',
        subject: t.urlKey ? `${subject} key ${t.urlKey}` : `alert target ${t.name}`,
        message: `the URL ${problem}`,
        fix: 'give an https:// URL without user name or password',
      });
    // A webhook is always signed: a receiver must be able to tell the agent from anyone who knows its URL.
    const signingKey =
      t.type === 'webhook'
        ? value(t.signingKey ?? 'hmac-key', `the HMAC key of alert target ${t.name}`)
        : undefined;
    return {
      name: t.name,
      type: t.type,
      url,
      ...(signingKey ? { signingKey } : {}),
      ...(t.events ? { events: t.events } : {}),
    };
  });
  return { targets, dedupWindowMs: soakMs(config.dedupWindow) };
}
