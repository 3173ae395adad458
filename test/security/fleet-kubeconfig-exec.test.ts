import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readContext } from '../../src/cli/actions/fleet.js';
import { FleetViewReader } from '../../src/cli/fleet-read.js';
import { groundwork } from '../harness/cli.js';

// Attack (issue 31, item 3): fleet.yaml is repository content. A per-cluster `kubeconfig:` naming a
// kubeconfig whose user has an `exec:` credential plugin ran that command when `fleet status`,
// `promote --dry-run` or the dashboard's Fleet page read the fleet. Each run below would create
// MARKER if the plugin ran; the positive control shows it does when the operator names the file.

const CONFIG = [
  'name: fleetprobe',
  'environments:',
  '  - { name: dev, overlays: [dev], ref: main }',
  '  - { name: prod, overlays: [prod], ref: env/prod, promotedFrom: dev, soak: 0s }',
  '',
].join('\n');

let home: string;
let repo: string;
let marker: string;
const saved = { HOME: process.env.HOME, KUBECONFIG: process.env.KUBECONFIG };

/** A kubeconfig whose user runs `/bin/sh -c 'touch MARKER; print a token'` (a server nobody answers on). */
function execKubeconfig(): string {
  const script = `touch '${marker}'; printf '%s' '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'`;
  return `apiVersion: v1
kind: Config
current-context: prod
clusters:
  - name: prod
    cluster: { server: "https://127.0.0.1:9" }
contexts:
  - name: prod
    context: { cluster: prod, user: planted-user }
users:
  - name: planted-user
    user:
      exec:
        apiVersion: client.authentication.k8s.io/v1
        command: /bin/sh
        args: ["-c", ${JSON.stringify(script)}]
        interactiveMode: Never
`;
}

function fleetYaml(kubeconfig: string): string {
  return `clusters:\n  - { name: prod-1, context: prod, kubeconfig: ${JSON.stringify(kubeconfig)} }\n`;
}

/** Runs the three readers of a fleet the way users do; the env is the operator's. */
async function readAll(env: NodeJS.ProcessEnv): Promise<string[]> {
  // The two CLI runs at once: each starts a Node process, slow on a loaded machine.
  const [status, promote] = await Promise.all([
    groundwork(['fleet', 'status', '--dir', repo, '--cluster-timeout', '2s'], { env }),
    groundwork(['promote', 'prod', '--dry-run', '--dir', repo, '--cluster-timeout', '2s'], { env }),
  ]);
  Object.assign(process.env, env);
  let page: string;
  try {
    const ctx = await readContext({ clusterTimeout: '2s' }, repo);
    const reader = new FleetViewReader(ctx, { platform: 'fleetprobe', environments: [] });
    page = JSON.stringify(await reader.read());
    await reader.close();
  } catch (err) {
    page = String(err);
  }
  return [status.stdout + status.stderr, promote.stdout + promote.stderr, page];
}

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'gw-fleet-exec-'));
  home = join(root, 'home');
  repo = join(root, 'repo');
  marker = join(root, 'MARKER');
  mkdirSync(join(home, '.kube'), { recursive: true });
  mkdirSync(repo);
  writeFileSync(join(repo, 'groundwork.yaml'), CONFIG);
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('a kubeconfig named by fleet.yaml never runs a credential plugin', { timeout: 120_000 }, () => {
  it('one committed to the repository is refused before it is read', async () => {
    writeFileSync(join(repo, 'kubeconfig.yaml'), execKubeconfig());
    writeFileSync(join(repo, 'fleet.yaml'), fleetYaml(join(repo, 'kubeconfig.yaml')));
    const outputs = await readAll({ HOME: home, KUBECONFIG: '' });
    expect(existsSync(marker)).toBe(false);
    for (const out of outputs) {
      expect(out).toContain('fleet.yaml: cluster prod-1');
      expect(out).toContain('is inside the repository');
    }
  });

  it("one of the operator's files that the operator does not name: the plugin is refused, naming file and user", async () => {
    const kc = join(home, '.kube', 'eks-prod');
    writeFileSync(kc, execKubeconfig());
    writeFileSync(join(repo, 'fleet.yaml'), fleetYaml('~/.kube/eks-prod'));
    const outputs = await readAll({ HOME: home, KUBECONFIG: '' });
    expect(existsSync(marker)).toBe(false);
    for (const out of outputs) {
      expect(out).toMatch(/user \\?"planted-user\\?" of context \\?"prod\\?" runs an exec credential plugin/);
      expect(out).toContain(kc);
    }
  });

  it("one outside the operator's kubeconfig directories is refused", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-fleet-elsewhere-'));
    writeFileSync(join(elsewhere, 'kc.yaml'), execKubeconfig());
    writeFileSync(join(repo, 'fleet.yaml'), fleetYaml(join(elsewhere, 'kc.yaml')));
    const outputs = await readAll({ HOME: home, KUBECONFIG: '' });
    expect(existsSync(marker)).toBe(false);
    for (const out of outputs) expect(out).toContain('outside your kubeconfig directories');
  });

  it('positive control: listed in KUBECONFIG by the operator, the same file runs its plugin', async () => {
    const kc = join(home, '.kube', 'eks-prod');
    writeFileSync(kc, execKubeconfig());
    writeFileSync(join(repo, 'fleet.yaml'), fleetYaml('~/.kube/eks-prod'));
    const [status] = await readAll({ HOME: home, KUBECONFIG: kc });
    expect(existsSync(marker)).toBe(true);
    expect(status).not.toContain('KubeconfigRefused');
  });
});
