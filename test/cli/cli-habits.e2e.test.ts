import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';

// What needs no cluster (no kubeconfig at all, unknown -o formats) is in cli-habits.test.ts.
const cluster = useCluster({ namespacePrefix: 'gw-cli-habits' });

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return groundwork(args, { env: { KUBERNETES_SERVICE_HOST: '', ...env } });
}

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

  it('--context naming an unknown context says so, with the available ones, exit 2', async () => {
    const r = await run(['version', '--kubeconfig', cluster.kubeconfig, '--context', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/context "nope": not found in kubeconfig .+; available: \S+/);
  });
});
