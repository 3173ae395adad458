import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { useCluster } from '../harness/cluster.js';

const bin = fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));
const cluster = useCluster({ namespacePrefix: 'gw-cli-habits' });
const emptyHome = mkdtempSync(join(tmpdir(), 'gw-home-'));

function groundwork(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, KUBERNETES_SERVICE_HOST: '', ...env } },
      (_e, stdout, stderr) => resolve({ code: child.exitCode ?? 1, stdout, stderr }),
    );
  });
}

const noKube = { KUBECONFIG: '', HOME: emptyHome };

describe('CLI habits of kubectl, flux and argocd users', () => {
  it('version prints client and server versions, as text, json and yaml', async () => {
    const text = await groundwork(['version', '--kubeconfig', cluster.kubeconfig]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Client Version: \d+\.\d+\.\d+\nServer Version: v1\.3[56]\.\d+/);
    const json = JSON.parse(
      (await groundwork(['version', '-o', 'json'], { KUBECONFIG: cluster.kubeconfig })).stdout,
    ) as {
      clientVersion: string;
      serverVersion: string;
    };
    expect(json.serverVersion).toMatch(/^v1\.3[56]\./);
    const yaml = parse(
      (await groundwork(['version', '--output', 'yaml', '--kubeconfig', cluster.kubeconfig])).stdout,
    ) as {
      serverVersion: string;
    };
    expect(yaml.serverVersion).toBe(json.serverVersion);
  });

  it('version without any kubeconfig says what it tried and still prints the client version', async () => {
    const r = await groundwork(['version'], noKube);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Client Version:');
    expect(r.stdout).toContain(
      `no kubeconfig found (tried $KUBECONFIG (unset), ${emptyHome}/.kube/config (missing), in-cluster service account (not in a pod))`,
    );
  });

  it('a command that needs a cluster, with no kubeconfig at all, says so and exits 2', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'gw-nokube-'));
    expect((await groundwork(['init', repo])).code).toBe(0);
    const r = await groundwork(['catalog', 'packages', '--kubeconfig', join(repo, 'missing')], noKube);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kubeconfig file not found');
    const plan = await groundwork(['plan', '--dir', repo], noKube);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('no kubeconfig found (tried');
  });

  it('--context naming an unknown context says so, with the available ones, exit 2', async () => {
    const r = await groundwork(['version', '--kubeconfig', cluster.kubeconfig, '--context', 'nope']);
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
      const r = await groundwork(args, noKube);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/argument 'xml' is invalid\. Allowed choices are .*yaml/);
    }
  });
});
