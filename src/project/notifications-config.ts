import { z } from 'zod';
import { urlProblem as outboundUrlProblem } from '../core/outbound-url.js';

/**
 * The alerts an environment sends (`environments[].notifications` in groundwork.yaml), a closed
 * vocabulary. `ApplyFailed` covers every cycle that stalls on the repository (synth, apply,
 * dependencies); `DriftDetected` is sent in detect-only mode (self-heal corrects drift instead).
 */
export const ALERT_EVENTS = [
  'ApplyFailed',
  'DriftDetected',
  'HealthDegraded',
  'VersionStepStarted',
  'VersionStepFinished',
  'PoolRolloutStarted',
  'PoolRolloutFinished',
  'Promoted',
] as const;

export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** A Secret key name (Kubernetes: `[-._a-zA-Z0-9]+`, at most 253). */
const secretKey = z
  .string()
  .regex(/^[-._a-zA-Z0-9]+$/, 'must be a Secret key: letters, digits, -, _ and .')
  .max(253);

/**
 * An alert URL written in groundwork.yaml: checked here for its form (http or https, no user
 * name or password, no fragment, no IP literal `core/outbound-url.ts` refuses: loopback unless
 * allowed, link-local, metadata, and their IPv6 forms such as `[::ffff:169.254.169.254]`); the
 * message never quotes the URL, which may hold a token. A URL read from the Secret is checked the
 * same way (`alertTargets`), and every host is resolved and checked again when an alert is sent.
 */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.username !== '' || url.password !== '')
    return 'must not hold a user name or password: put credentials in the Secret';
  if (url.hash !== '') return 'must not have a #fragment';
  // Scheme and IP literals (IPv4-mapped and other IPv6 forms included) by the one outbound check;
  // a host name is resolved and checked when the alert is sent (core/checked-fetch.ts).
  const problem = outboundUrlProblem(url);
  return problem ? `${problem}: use the receiver's own address` : undefined;
}

const alertUrl = z.string().superRefine((text, ctx) => {
  const problem = urlProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: `url ${problem}` });
});

const targetSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label')
      .max(40)
      .describe('Names the target in logs and in `groundwork_notification_failures_total{target}`; unique.'),
    type: z
      .enum(['webhook', 'slack'])
      .describe(
        '`webhook`: JSON body signed with HMAC-SHA256; `slack`: a Slack-compatible incoming webhook.',
      ),
    url: alertUrl
      .optional()
      .describe(
        'The URL, when it is not a secret (a webhook signed with `signingKey`): http or https, no user name, password or fragment. Give `url` or `urlKey`.',
      ),
    urlKey: secretKey
      .optional()
      .describe("The Secret key holding the URL (Slack's incoming webhook URLs are credentials)."),
    signingKey: secretKey
      .optional()
      .describe(
        'The Secret key holding the HMAC-SHA256 key (webhook only). Default: `hmac-key` for a webhook.',
      ),
    events: z
      .array(z.enum(ALERT_EVENTS))
      .min(1)
      .optional()
      .describe('The events sent. Default: every event.'),
  })
  .strict()
  .superRefine((t, ctx) => {
    if ((t.url === undefined) === (t.urlKey === undefined))
      ctx.addIssue({ code: 'custom', message: 'give one of url (in the file) or urlKey (in the Secret)' });
    if (t.type === 'slack' && t.signingKey !== undefined)
      ctx.addIssue({ code: 'custom', path: ['signingKey'], message: 'a slack target is not signed' });
  });

/**
 * `environments[].notifications`: where this environment's alerts go, and the Secret (in the
 * agent's namespace, labelled `groundwork.io/notifications: "true"`) holding their URLs and keys.
 */
export const notificationsSchema = z
  .object({
    secret: z
      .string()
      .regex(/^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/, 'must be a Secret name')
      .max(253)
      .describe(
        'The Secret in the agent\'s namespace, labelled `groundwork.io/notifications: "true"`, holding the URLs and keys.',
      ),
    alerts: z.array(targetSchema).min(1).describe('The alert targets, at least one; each name once.'),
    dedupWindow: z
      .string()
      .regex(/^(?:\d+h)?(?:\d+m)?(?:\d+s)?$/, 'must be a duration in h, m and s, e.g. 15m')
      .default('15m')
      .describe('The same alert (event and subject) is sent once within this window.'),
  })
  .strict()
  .superRefine((n, ctx) => {
    const seen = new Set<string>();
    n.alerts.forEach((t, i) => {
      if (seen.has(t.name))
        ctx.addIssue({ code: 'custom', path: ['alerts', i, 'name'], message: `${t.name} is listed twice` });
      seen.add(t.name);
    });
  });

/** An environment's alert settings, as read from groundwork.yaml. */
export type NotificationsConfig = z.output<typeof notificationsSchema>;
export type AlertTargetConfig = NotificationsConfig['alerts'][number];
