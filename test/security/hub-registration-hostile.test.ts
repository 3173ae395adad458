import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import {
  BOOTSTRAP_MAX_BYTES,
  bootstrapKubeconfig,
  parseBootstrapKubeconfig,
} from '../../src/hub/bootstrap-kubeconfig.js';
import { memberReportSchema } from '../../src/hub/member-schema.js';
import { decideRegistration } from '../../src/hub/registration-decision.js';
import { registrationSpecSchema } from '../../src/hub/registration-schema.js';
import { newRegistrationToken, registrationName, tokenHash } from '../../src/hub/registration-token.js';
import type { TokenRecord } from '../../src/hub/token-store.js';

// Attacks on the hub's new input paths (issue 34). The bootstrap kubeconfig reaches the agent from
// whoever handed it over (a file, a Secret); registrations reach the controller from anyone holding
// a bootstrap kubeconfig; reports reach the hub from members. The real apiserver's side (RBAC, the
// CRD's bounds, the controller's refusals) is in test/hub/hub-registration.e2e.test.ts.

const RECIPIENT = `age1${'q'.repeat(58)}`;
const now = new Date('2026-11-28T03:00:00Z');

let marker: string;
beforeEach(() => {
  marker = join(mkdtempSync(join(tmpdir(), 'gw-hub-sec-')), 'PLUGIN-RAN');
});

const valid = () => ({
  server: 'https://127.0.0.1:9',
  bearer: 'registration-token',
  member: 'eu-1',
  token: newRegistrationToken().token,
  expiresAt: '2026-11-28T04:00:00Z',
});

/** A bootstrap kubeconfig whose user also carries `user` (e.g. an exec plugin that touches MARKER). */
function withUser(user: Record<string, unknown>, server = 'https://127.0.0.1:9'): string {
  const b = valid();
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'hub', cluster: { server } }],
    users: [{ name: 'registration', user: { token: b.bearer, ...user } }],
    contexts: [{ name: 'hub', context: { cluster: 'hub', user: 'registration' } }],
    'current-context': 'hub',
    extensions: [
      {
        name: 'hub.groundwork.io/registration',
        extension: { member: b.member, token: b.token, expiresAt: b.expiresAt },
      },
    ],
  });
}

const exec = () => ({
  exec: {
    apiVersion: 'client.authentication.k8s.io/v1',
    command: '/bin/sh',
    args: [
      '-c',
      `touch '${marker}'; printf '%s' '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'`,
    ],
    interactiveMode: 'Never',
  },
});

describe('a hostile bootstrap kubeconfig', () => {
  it('with an exec plugin is refused before anything runs', async () => {
    expect(() => parseBootstrapKubeconfig(withUser(exec()), 'secret/hub-bootstrap')).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid', message: expect.stringContaining('exec') }),
    );
    // The client the hub's texts go through refuses it too (defence in depth).
    await expect(
      KubeClient.fromKubeconfigText(withUser(exec()), { where: 'the hub credentials' }),
    ).rejects.toThrow();
    expect(existsSync(marker)).toBe(false);
  });

  it('control: the same kubeconfig without the plugin is accepted', () => {
    expect(parseBootstrapKubeconfig(withUser({}), 'secret/hub-bootstrap')).toMatchObject({ member: 'eu-1' });
  });

  it.each([
    ['auth-provider', { 'auth-provider': { name: 'oidc', config: {} } }],
    ['tokenFile', { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' }],
    ['client-key', { 'client-key': '/etc/kubernetes/pki/admin.key' }],
  ])('with a user carrying %s is refused', (what, user) => {
    expect(() => parseBootstrapKubeconfig(withUser(user), 'hub.yaml')).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid', message: expect.stringContaining(what) }),
    );
  });

  it('pointing at a non-https server, oversized, or an alias bomb is refused without quoting it', () => {
    for (const server of ['http://127.0.0.1:8080', 'file:///etc/passwd', 'https://x/?next=evil'])
      expect(() => parseBootstrapKubeconfig(withUser({}, server), 'hub.yaml')).toThrow(
        expect.objectContaining({ code: 'HubBootstrapInvalid' }),
      );
    expect(() => parseBootstrapKubeconfig(`# ${'x'.repeat(BOOTSTRAP_MAX_BYTES)}`, 'hub.yaml')).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid' }),
    );
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(() => parseBootstrapKubeconfig(bomb, 'hub.yaml')).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid' }),
    );
    const b = valid();
    const smuggled = bootstrapKubeconfig(b).replace(
      `expiresAt: ${b.expiresAt}`,
      `expiresAt: ${b.expiresAt}\n      extra: x`,
    );
    const err = (() => {
      try {
        parseBootstrapKubeconfig(smuggled, 'hub.yaml');
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err).toMatchObject({ code: 'HubBootstrapInvalid' });
    expect(err!.message).not.toContain(b.token);
    expect(err!.message).not.toContain(b.bearer);
  });
});

describe('a hostile registration', () => {
  const { id, token } = newRegistrationToken();
  const record: TokenRecord = {
    id,
    hash: tokenHash(token),
    member: 'eu-1',
    labels: {},
    expiresAt: '2026-11-28T04:00:00Z',
    used: false,
    resourceVersion: '1',
  };
  const spec = { member: 'eu-1', token, recipient: RECIPIENT };

  it('with a forged secret for a real token id is TokenUnknown', () => {
    const forged = `${id}.${token.slice(7).split('').reverse().join('')}`;
    expect(
      decideRegistration({ name: registrationName(forged), spec: { ...spec, token: forged }, record, now }),
    ).toMatchObject({
      accept: false,
      reason: 'TokenUnknown',
    });
  });

  it('replaying a spent token, under its own name with a new key, is TokenUsed', () => {
    const spent = { ...record, used: true, usedBy: registrationName(token), usedRecipient: RECIPIENT };
    const attacker = `age1${'z'.repeat(58)}`;
    expect(
      decideRegistration({
        name: registrationName(token),
        spec: { ...spec, recipient: attacker },
        record: spent,
        now,
      }),
    ).toMatchObject({
      accept: false,
      reason: 'TokenUsed',
    });
  });

  it('with an expired token is TokenExpired, and naming another member is MemberMismatch', () => {
    expect(
      decideRegistration({
        name: registrationName(token),
        spec,
        record,
        now: new Date('2026-11-28T05:00:00Z'),
      }),
    ).toMatchObject({
      reason: 'TokenExpired',
    });
    expect(
      decideRegistration({ name: registrationName(token), spec: { ...spec, member: 'us-1' }, record, now }),
    ).toMatchObject({
      reason: 'MemberMismatch',
    });
  });

  it('squatting the name of another token is NameMismatch', () => {
    const other = newRegistrationToken().token;
    expect(decideRegistration({ name: registrationName(other), spec, record, now })).toMatchObject({
      reason: 'NameMismatch',
    });
  });

  it('with a path, an odd member or a foreign key in its spec does not parse', () => {
    for (const bad of [
      { ...spec, token: `../../${token}` },
      { ...spec, member: 'EU_1' },
      { ...spec, member: 'a'.repeat(41) },
      { ...spec, recipient: 'ssh-ed25519 AAAA' },
    ])
      expect(registrationSpecSchema.safeParse(bad).success).toBe(false);
    expect(registrationSpecSchema.safeParse(spec).success).toBe(true);
  });
});

describe('a hostile report', () => {
  const report = {
    sequence: 1,
    reportedAt: '2026-11-28T03:00:00Z',
    overlay: 'prod',
    ready: { status: 'True', reason: 'Applied' },
  };

  it('over any bound does not parse (the CRD generated from this schema refuses it too)', () => {
    expect(memberReportSchema.safeParse(report).success).toBe(true);
    for (const bad of [
      { ...report, ready: { ...report.ready, message: 'x'.repeat(513) } },
      { ...report, overlay: '../../etc' + 'x'.repeat(300) },
      {
        ...report,
        drift: {
          count: 1,
          items: Array.from({ length: 6 }, () => ({ object: 'ConfigMap/x', type: 'modified' })),
        },
      },
      { ...report, sequence: -1 },
    ])
      expect(memberReportSchema.safeParse(bad).success).toBe(false);
  });
});
