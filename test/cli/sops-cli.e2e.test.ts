import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { platformDir } from '../harness/platform-dir.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('sops');

// plan, apply and drift on a laptop decrypt SopsSecrets with SOPS_AGE_KEY_FILE, in memory: no
// output format of any of them carries a value, and drift of a decrypted Secret shows by tag.

const cluster = useCluster({ namespacePrefix: 'gw-cli-sops' });
const HTPASSWD = 'admin:planted-cli-htpasswd-6e2f';
const LIVE_EDIT = 'planted-cli-live-edit-0b9d';
const PLANTED = [
  HTPASSWD,
  'planted-cli-htpasswd',
  LIVE_EDIT,
  Buffer.from(HTPASSWD).toString('base64'),
  Buffer.from(LIVE_EDIT).toString('base64'),
];

const MAIN = (ns: string) => `import { Platform, SopsSecret, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new SopsSecret(p, 'htpass-secret', { file: 'secrets/htpasswd.sops.yaml', namespace: '${ns}' });
  },
});
`;

describe('plan, apply and drift with a SopsSecret', () => {
  it('need SOPS_AGE_KEY_FILE, apply the value, and show drift and changes without it', async () => {
    const ns = cluster.namespace;
    const work = mkdtempSync(join(tmpdir(), 'gw-cli-sops-'));
    const identity = await generateX25519Identity();
    const keyFile = join(work, 'keys.txt');
    writeFileSync(keyFile, `${identity}\n`);
    writeFileSync(join(work, 'h.yaml'), `htpasswd: '${HTPASSWD}'\n`);
    const { stdout: encrypted } = await promisify(execFile)(
      await toolPath('sops'),
      ['--encrypt', '--age', await identityToRecipient(identity), 'h.yaml'],
      { cwd: work, env: { PATH: process.env.PATH, HOME: work } },
    );
    const dir = platformDir(MAIN(ns), {
      name: `sops-${ns.slice(-6)}`,
      files: { 'secrets/htpasswd.sops.yaml': encrypted },
    });
    const outputs: string[] = [];
    const run = async (args: string[], env: Record<string, string> = { SOPS_AGE_KEY_FILE: keyFile }) => {
      const r = await groundwork([...args, '--dir', dir], {
        env: { KUBECONFIG: cluster.kubeconfig, ...env },
      });
      outputs.push(`${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
      return r;
    };

    const noKey = await run(['plan'], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('secrets/htpasswd.sops.yaml');
    expect(noKey.stderr).toContain('SOPS_AGE_KEY_FILE');

    for (const format of ['text', 'json', 'yaml', 'markdown'])
      expect((await run(['plan', '-o', format])).code).toBe(1); // 1: changes to make
    const apply = await run(['apply', '--no-wait', '-o', 'json']);
    expect(apply.code).toBe(0);
    const secret = `/api/v1/namespaces/${ns}/secrets/htpass-secret`;
    const live = await cluster.client.request<{
      data: Record<string, string>;
      metadata: { annotations: Record<string, string> };
    }>('GET', secret);
    expect(Buffer.from(live.data.htpasswd!, 'base64').toString()).toBe(HTPASSWD);
    expect(Object.keys(live.metadata.annotations)).not.toContain('groundwork.io/sops');

    await cluster.client.request('PATCH', secret, {
      body: { data: { htpasswd: Buffer.from(LIVE_EDIT).toString('base64') } },
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'kubectl-edit' },
    });
    const drift = await run(['drift']);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(
      /modified +Secret\/\S+ +\/data\/htpasswd +<redacted hmac:[0-9a-f]{8}> +<redacted hmac:[0-9a-f]{8}> +kubectl-edit/,
    );
    for (const format of ['json', 'yaml', 'markdown'])
      expect((await run(['drift', '-o', format])).code).toBe(1);
    const plan = await run(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(/htpass-secret/);
    expect(plan.stdout).toMatch(/<redacted hmac:[0-9a-f]{8}>/);

    expect(outputs.length).toBe(11);
    for (const out of outputs)
      for (const value of PLANTED)
        expect(out.includes(value) ? `${value} in: ${out.split('\n')[0]}` : '').toBe('');
  });
});
