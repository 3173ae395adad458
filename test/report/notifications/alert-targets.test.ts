import { describe, expect, it } from 'vitest';
import { alertTargets, NOTIFICATIONS_LABEL } from '../../../src/report/notifications/alert-targets.js';
import { notificationsSchema } from '../../../src/synth/notifications-config.js';
import { GroundworkError } from '../../../src/core/errors.js';

const SLACK = 'https://hooks.slack.example/services/T000/B000/XXXXsecretXXXX';
const labels = { [NOTIFICATIONS_LABEL]: 'true' };

function config(alerts: unknown[]) {
  return notificationsSchema.parse({ secret: 'alerts', alerts });
}

/** The message of the error `fn` throws (with subject and fix), and its code. */
function failure(fn: () => unknown): { code: string; text: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof GroundworkError) return { code: err.code, text: err.toString() };
    throw err;
  }
  throw new Error('did not throw');
}

describe('notifications in groundwork.yaml (hostile URLs)', () => {
  it.each([
    ['file:///etc/passwd', 'the file: scheme is not allowed'],
    ['gopher://127.0.0.1:70/x', 'the gopher: scheme is not allowed'],
    ['javascript:alert(1)', 'the javascript: scheme is not allowed'],
    ['https://user:hunter2@hooks.example.com/x', 'must not hold a user name or password'],
    ['https://tok3n@hooks.example.com/x', 'must not hold a user name or password'],
    ['not a url', 'is not a URL'],
    ['https://hooks.example.com/x#frag', 'must not have a #fragment'],
  ])('refuses %s with a clear message that does not echo it', (url, message) => {
    const parsed = notificationsSchema.safeParse({
      secret: 'alerts',
      alerts: [{ name: 'ops', type: 'webhook', url }],
    });
    expect(parsed.success).toBe(false);
    const text = JSON.stringify(parsed.error!.issues);
    expect(text).toContain(message);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('tok3n');
    expect(text).not.toContain('/etc/passwd');
  });

  it('needs exactly one of url and urlKey, unique names, and known events', () => {
    expect(
      notificationsSchema.safeParse({ secret: 's', alerts: [{ name: 'a', type: 'slack' }] }).success,
    ).toBe(false);
    expect(
      notificationsSchema.safeParse({
        secret: 's',
        alerts: [{ name: 'a', type: 'slack', url: SLACK, urlKey: 'k' }],
      }).success,
    ).toBe(false);
    expect(
      notificationsSchema.safeParse({
        secret: 's',
        alerts: [
          { name: 'a', type: 'webhook', url: SLACK },
          { name: 'a', type: 'webhook', url: SLACK },
        ],
      }).success,
    ).toBe(false);
    expect(
      notificationsSchema.safeParse({
        secret: 's',
        alerts: [{ name: 'a', type: 'webhook', url: SLACK, events: ['Boom'] }],
      }).success,
    ).toBe(false);
    expect(
      notificationsSchema.safeParse({ secret: '../x', alerts: [{ name: 'a', type: 'webhook', url: SLACK }] })
        .success,
    ).toBe(false);
  });
});

describe('alertTargets', () => {
  it('takes URLs and keys from the Secret', () => {
    const { targets, dedupWindowMs } = alertTargets(
      config([
        { name: 'ops', type: 'webhook', url: 'https://hooks.example.com/gw', events: ['ApplyFailed'] },
        { name: 'chat', type: 'slack', urlKey: 'slack-url' },
      ]),
      { labels, data: { 'hmac-key': 'k', 'slack-url': `${SLACK}\n` } },
    );
    expect(targets).toEqual([
      {
        name: 'ops',
        type: 'webhook',
        url: 'https://hooks.example.com/gw',
        signingKey: 'k',
        events: ['ApplyFailed'],
      },
      { name: 'chat', type: 'slack', url: SLACK },
    ]);
    expect(dedupWindowMs).toBe(15 * 60_000);
  });

  it('does not read a Secret without the notifications label (groundwork.yaml could name the git credentials)', () => {
    const f = failure(() =>
      alertTargets(config([{ name: 'chat', type: 'slack', urlKey: 'token' }]), {
        labels: {},
        data: { token: 'ghp_x' },
      }),
    );
    expect(f.code).toBe('NotificationSecretInvalid');
    expect(f.text).toContain(`not labelled ${NOTIFICATIONS_LABEL}=true`);
    expect(f.text).not.toContain('ghp_x');
  });

  it('refuses a URL from the Secret that is not http(s), without quoting it', () => {
    for (const bad of [
      'file:///var/run/secrets/token',
      'https://u:p4ss@h.example/x',
      'ghp_notAUrlButAToken',
    ]) {
      const f = failure(() =>
        alertTargets(config([{ name: 'chat', type: 'slack', urlKey: 'u' }]), { labels, data: { u: bad } }),
      );
      expect(f.code).toBe('InvalidNotificationUrl');
      expect(f.text).toContain('Secret alerts key u');
      expect(f.text).not.toContain(bad);
      expect(f.text).not.toContain('p4ss');
    }
  });

  it('needs the signing key of a webhook, and a missing Secret is named', () => {
    const cfg = config([{ name: 'ops', type: 'webhook', url: 'https://h.example/x' }]);
    expect(failure(() => alertTargets(cfg, { labels, data: {} })).text).toContain('has no key hmac-key');
    expect(failure(() => alertTargets(cfg, undefined))).toMatchObject({ code: 'NotificationSecretInvalid' });
  });
});
