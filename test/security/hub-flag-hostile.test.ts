import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOptionsOf } from '../../src/agent/options-schema.js';
import { KubeClient } from '../../src/cluster/client.js';
import { BOOTSTRAP_MAX_BYTES, bootstrapKubeconfig } from '../../src/hub/bootstrap-kubeconfig.js';
import { readHubBootstrap } from '../../src/hub/hub-member.js';
import { hubSourceOf } from '../../src/hub/hub-source.js';
import { HUB_CREDENTIALS_SECRET } from '../../src/hub/member-credentials-store.js';
import { newRegistrationToken } from '../../src/hub/registration-token.js';
import { agentRbac, withHubRbac } from '../../src/install/rbac.js';

// The agent's `--hub <file | secret/name>` is a new input path (issue 34): the value names what the
// agent reads, and what it reads came from whoever handed the bootstrap kubeconfig over. Nothing in
// it may run a program, read another file or Secret, or reach the hub in the clear.

const dir = mkdtempSync(join(tmpdir(), 'gw-hub-flag-'));
const marker = join(dir, 'PLUGIN-RAN');
let local: KubeClient;

beforeAll(async () => {
  // The agent's own cluster: never contacted for a file (nothing listens on port 9).
  local = await KubeClient.fromKubeconfigText(
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:9' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    }),
    { where: 'test' },
  );
});
afterAll(() => local.close());

const bootstrap = (server = 'https://127.0.0.1:9') =>
  bootstrapKubeconfig({
    server,
    bearer: 'registration-bearer',
    member: 'eu-1',
    token: newRegistrationToken().token,
    expiresAt: '2099-01-01T00:00:00Z',
  });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

const read = (hub: string) => readHubBootstrap({ local, namespace: 'groundwork-system', hub });

describe('--hub, hostile', () => {
  it('refuses a bootstrap kubeconfig whose user runs an exec plugin, without running it', async () => {
    const doc = parseYaml(bootstrap()) as {
      users: { user: Record<string, unknown> }[];
    };
    doc.users[0]!.user.exec = {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: '/bin/sh',
      args: ['-c', `touch ${marker}`],
    };
    await expect(read(file('exec.yaml', stringify(doc)))).rejects.toMatchObject({
      code: 'HubBootstrapInvalid',
      message: expect.stringContaining('exec'),
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a hub that is not https://', async () => {
    for (const server of [
      'http://hub.example:6443',
      'https://hub.example:6443 http://x',
      'file:///etc/hosts',
    ])
      await expect(read(file('plain.yaml', bootstrap(server)))).rejects.toMatchObject({
        code: 'HubBootstrapInvalid',
      });
  });

  it('refuses secret/ with a bad name at start, never reading it as a file', () => {
    for (const hub of [
      'secret/',
      'secret/../../etc/passwd',
      'secret/Bad_Name',
      'secret/a/b',
      'secret/-x',
      `secret/${'a'.repeat(254)}`,
    ]) {
      expect(() => hubSourceOf(hub), hub).toThrow(expect.objectContaining({ code: 'HubBootstrapInvalid' }));
      // `groundwork agent` refuses the flag before any connection.
      expect(() => agentOptionsOf({ repo: 'https://git.example/p.git', overlay: 'prod', hub }, {})).toThrow(
        expect.objectContaining({ code: 'HubBootstrapInvalid' }),
      );
    }
    expect(hubSourceOf('secret/hub-bootstrap')).toEqual({ kind: 'secret', name: 'hub-bootstrap' });
  });

  it('reads a regular file only, and at most 256 KiB of it', async () => {
    await expect(read('/dev/zero')).rejects.toMatchObject({ code: 'HubBootstrapInvalid' });
    await expect(read(dir)).rejects.toMatchObject({ code: 'HubBootstrapInvalid' });
    const big = file('big.yaml', `${bootstrap()}\n# ${'x'.repeat(BOOTSTRAP_MAX_BYTES)}\n`);
    await expect(read(big)).rejects.toMatchObject({
      code: 'HubBootstrapInvalid',
      message: expect.stringContaining('larger than'),
    });
    await expect(read(file('ok.yaml', bootstrap()))).resolves.toMatchObject({ member: 'eu-1' });
  });

  it('bootstrap grants the agent its hub Secrets by name only, and refuses a file (it does not exist in the pod)', () => {
    const base = agentRbac({
      objects: [],
      namespace: 'groundwork-system',
      inventory: { namespace: 'groundwork-system', name: 'inv' },
    });
    const rbac = withHubRbac(base, 'groundwork-system', 'secret/hub-bootstrap');
    const secretRules = rbac.namespaced
      .flatMap((n) => n.rules)
      .filter((r) => r.resources.includes('secrets') && r.verbs.some((v) => v !== 'create'));
    // Every Secret read or update is by name: the git credentials stay out of reach.
    expect(secretRules.every((r) => (r.resourceNames?.length ?? 0) > 0)).toBe(true);
    expect(secretRules).toContainEqual(
      expect.objectContaining({ verbs: ['get', 'update'], resourceNames: [HUB_CREDENTIALS_SECRET] }),
    );
    expect(secretRules).toContainEqual(
      expect.objectContaining({ verbs: ['get'], resourceNames: ['hub-bootstrap'] }),
    );
    expect(() => withHubRbac(base, 'groundwork-system', join(dir, 'ok.yaml'))).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid' }),
    );
  });
});
