import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-cli-habits' });
const emptyHome = mkdtempSync(join(tmpdir(), 'gw-home-'));

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return groundwork(args, { env: { KUBERNETES_SERVICE_HOST: '', ...env } });
}

const noKube = { KUBECONFIG: '', HOME: emptyHome };

describe('CLI habits of kubectl, flux and argocd users', () => {
  it('version prints client and server versions, as text, json and yaml', async () => {
    const text = await run(['version', '--kubeconfig', cluster.kubeconfig]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Client Version: \d+\.\d+\.\d+\nServer Version: v1\.3[56]\.\d+/);
    const json = JSON.parse(
      (await run(['version', '-o', 'json'], { KUBECONFIG: cluster.kubeconfig })).stdout,
    ) as {
      clientVersion: string;
      serverVersion: string;
    };
    expect(json.serverVersion).toMatch(/^v1\.3[56]\./);
    const yaml = parse(
      (await run(['version', '--output', 'yaml', '--kubeconfig', cluster.kubeconfig])).stdout,
    ) as {
      serverVersion: string;
    };
    expect(yaml.serverVersion).toBe(json.serverVersion);
  });

  it('version without any kubeconfig says what it tried and still prints the client version', async () => {
    const r = await run(['version'], noKube);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Client Version:');
    expect(r.stdout).toContain(
      `no kubeconfig found (tried $KUBECONFIG (unset), ${emptyHome}/.kube/config (missing), in-cluster service account (not in a pod))`,
    );
  });

  it('a command that needs a cluster, with no kubeconfig at all, says so and exits 2', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'gw-nokube-'));
    expect((await run(['init', repo])).code).toBe(0);
    const r = await run(['catalog', 'packages', '--kubeconfig', join(repo, 'missing')], noKube);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kubeconfig file not found');
    const plan = await run(['plan', '--dir', repo], noKube);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('no kubeconfig found (tried');
  });

  it('--context naming an unknown context says so, with the available ones, exit 2', async () => {
    const r = await run(['version', '--kubeconfig', cluster.kubeconfig, '--context', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/context "nope": not found in kubeconfig .+; available: \S+/);
  });

  it('-o with an unknown format is a usage error naming the formats, exit 2, for every data command', async () => {
    for (const args of [
      ['synth', '-o', 'xml'],
      ['plan', '-o', 'xml'],
      ['apply', '-o', 'xml'],
      ['drift', '-o', 'xml'],
      ['catalog', 'packages', '-o', 'xml'],
      ['upgrade-path', '--graph', 'g.json', '--to', '4.16.1', '-o', 'xml'],
      ['preview', '--base', 'a', '--head', 'b', '-o', 'xml'],
      ['cluster', 'status', '-o', 'xml'],
      ['version', '-o', 'xml'],
    ]) {
      const r = await run(args, noKube);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/argument 'xml' is invalid\. Allowed choices are .*yaml/);
    }
  });
});
