import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../../src/project/config.js';
import { alertTargets, NOTIFICATIONS_LABEL } from '../../../src/report/notifications/alert-targets.js';
import { notificationsSchema } from '../../../src/project/notifications-config.js';
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
    ['file:///etc/passwd', 'uses the file: scheme'],
    ['gopher://127.0.0.1:70/x', 'uses the gopher: scheme'],
    ['javascript:alert(1)', 'uses the javascript: scheme'],
    ['https://user:hunter2@hooks.example.com/x', 'must not hold a user name or password'],
    ['https://tok3n@hooks.example.com/x', 'must not hold a user name or password'],
    ['not a url', 'is not a URL'],
    ['https://hooks.example.com/x#frag', 'must not have a #fragment'],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'names a cloud metadata address'],
    ['http://[::ffff:169.254.169.254]/', 'names a cloud metadata address'],
    ['http://[fe80::1]/x', 'names a link-local address'],
    ['http://[::ffff:a9fe:101]/x', 'names a link-local address'],
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

describe('groundwork.yaml with notifications (loadProjectConfig)', () => {
  const yaml = (url: string) =>
    [
      'name: shop',
      'environments:',
      '  - name: staging',
      '    overlays: [staging]',
      '    ref: main',
      '    notifications:',
      '      secret: alerts',
      '      alerts:',
      '        - name: ops',
      '          type: webhook',
      `          url: ${url}`,
      '',
    ].join('\n');

  it('reads an environment with alerts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-notify-config-'));
    writeFileSync(join(dir, 'groundwork.yaml'), yaml('https://hooks.example.com/gw'));
    const config = await loadProjectConfig(dir);
    expect(config.environments?.[0]?.notifications).toMatchObject({
      secret: 'alerts',
      dedupWindow: '15m',
      alerts: [{ name: 'ops', type: 'webhook', url: 'https://hooks.example.com/gw' }],
    });
  });

  it('refuses a file: URL or one with credentials as InvalidConfig naming the line, never the URL', async () => {
    for (const [url, why] of [
      ['file:///var/run/secrets/kubernetes.io/serviceaccount/token', 'uses the file: scheme'],
      ['https://deploy:s3cr3t@hooks.example.com/gw', 'must not hold a user name or password'],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'gw-notify-config-'));
      writeFileSync(join(dir, 'groundwork.yaml'), yaml(url));
      const err: unknown = await loadProjectConfig(dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GroundworkError);
      const text = String(err);
      expect(text).toContain('groundwork.yaml:11');
      expect(text).toContain(why);
      expect(text).not.toContain('s3cr3t');
      expect(text).not.toContain('serviceaccount');
    }
  });
});
