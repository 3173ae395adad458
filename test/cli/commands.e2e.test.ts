import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/process-alive.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { platformRepo } from '../harness/agent-repo.js';
import { useWorkloadBinaries } from '../harness/workload-binaries.js';
import { BIN } from '../harness/cli.js';

const bin = BIN;
const cluster = useCluster({ namespacePrefix: 'gw-cli' });
// `cluster up` runs kube-scheduler and KWOK: found or built before the tests, not inside one.
useWorkloadBinaries();

/** Runs the CLI; resolves to exit code and output (never rejects on a non-zero exit). */
function groundwork(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: opts.cwd, env: { ...process.env, ...opts.env }, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('the CLI against the real control plane', () => {
  it('cluster up | status | kubeconfig | down manage a named instance and leave nothing running', async () => {
    const name = `cli-${cluster.namespace.slice(-6)}`;
    const up = await groundwork(['cluster', 'up', '--name', name]);
    expect(up.code).toBe(0);
    expect(up.stdout).toContain('export KUBECONFIG=');
    const status = await groundwork(['cluster', 'status', '--name', name, '-o', 'json']);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout) as {
      version: string;
      processes: { pid: number; alive: boolean }[];
      crds: unknown[];
      state: { etcdDir: string; kubeconfig: string };
    };
    expect(parsed.version).toMatch(/^v1\.3[56]\./);
    expect(parsed.processes.every((p) => p.alive)).toBe(true);
    expect(parsed.crds.length).toBeGreaterThanOrEqual(10);
    const kubeconfig = (await groundwork(['cluster', 'kubeconfig', '--name', name])).stdout.trim();
    expect(existsSync(kubeconfig)).toBe(true);
    expect((await groundwork(['cluster', 'kubeconfig', '--name', name, '--raw'])).stdout).toContain(
      'certificate-authority-data',
    );
    const down = await groundwork(['cluster', 'down', '--name', name]);
    expect(down.code).toBe(0);
    expect(parsed.processes.filter((p) => isAlive(p.pid))).toEqual([]);
    // Everything up created is gone: etcd data, the kubeconfig and the instance directory with its keys.
    expect(existsSync(parsed.state.etcdDir)).toBe(false);
    expect(existsSync(parsed.state.kubeconfig)).toBe(false);
    expect(existsSync(dirname(parsed.state.kubeconfig))).toBe(false);
    expect((await groundwork(['cluster', 'status', '--name', name])).code).toBe(2);
  });

  it('synth exits 2 and writes nothing on validation errors; plan exits 1 with changes, 0 after apply; drift exits 1 on drift', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`c${ns.slice(-6)}`);
    await repo.publish({ namespace: ns, items: { a: '1', b: '2' } }, {}, 'first');
    const dir = repo.repo.workDir;
    const env = { KUBECONFIG: cluster.kubeconfig };

    const out = join(dir, 'out');
    writeFileSync(
      join(dir, 'overlays', 'broken.yaml'),
      JSON.stringify({ namespace: ns, items: {}, approval: 'manual' }),
    );
    const broken = await groundwork(['synth', '--overlay', 'broken', '--out', out], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('platform/op: approval');
    expect(existsSync(out)).toBe(false);

    const synth = await groundwork(['synth', '--all-overlays', '--out', out], { cwd: dir });
    expect(synth.code).toBe(2); // the broken overlay fails the whole run: nothing is written
    expect(existsSync(out)).toBe(false);
    const good = await groundwork(['synth', '--overlay', 'test', '--out', out, '--format', 'json'], {
      cwd: dir,
    });
    expect(good.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'test', 'index.json'), 'utf8'))).toMatchObject({
      kind: 'ManifestIndex',
      count: 2,
    });

    expect((await groundwork(['plan', '--overlay', 'test'], { cwd: dir, env })).code).toBe(1);
    const apply = await groundwork(['apply', '--overlay', 'test', '--prune'], { cwd: dir, env });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('2 created');
    const plan = await groundwork(['plan', '--overlay', 'test', '--format', 'json'], { cwd: dir, env });
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ kind: 'Plan', counts: { unchanged: 2 } });
    expect((await groundwork(['drift', '--overlay', 'test'], { cwd: dir, env })).code).toBe(0);

    // A hand-made ConfigMap in the namespace is not drift (issue 32, item 1): `--unmanaged` lists
    // it, informational; groundwork.yaml's `unmanaged.failOn` makes it extra drift.
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: 'handmade' } },
    });
    const config = readFileSync(join(dir, 'groundwork.yaml'), 'utf8');
    writeFileSync(join(dir, 'groundwork.yaml'), `${config}unmanaged:\n  namespaces: [${ns}]\n`);
    expect((await groundwork(['drift', '--overlay', 'test'], { cwd: dir, env })).code).toBe(0);
    const listed = await groundwork(['drift', '--overlay', 'test', '--unmanaged', '--format', 'json'], {
      cwd: dir,
      env,
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      summary: { drifted: 0, unmanaged: 1 },
      unmanaged: {
        failOn: false,
        count: 1,
        objects: [{ namespace: ns, kind: 'ConfigMap', name: 'handmade' }],
      },
    });
    writeFileSync(
      join(dir, 'groundwork.yaml'),
      `${config}unmanaged:\n  namespaces: [${ns}]\n  failOn: true\n`,
    );
    const failing = await groundwork(['drift', '--overlay', 'test'], { cwd: dir, env });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('Drift in');
    expect(failing.stdout).toContain('counted as drift (extra)');
    writeFileSync(join(dir, 'groundwork.yaml'), config);
    await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/handmade`);

    const live = await cluster.client.request<Record<string, unknown>>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps/a`,
    );
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...live, data: { value: 'x' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const drift = await groundwork(['drift', '--overlay', 'test', '--format', 'json'], { cwd: dir, env });
    expect(drift.code).toBe(1);
    expect(JSON.parse(drift.stdout)).toMatchObject({
      apiVersion: 'groundwork.io/v1',
      kind: 'DriftReport',
      summary: { modified: 1 },
      items: [
        {
          type: 'modified',
          fields: [{ path: '/data/value', expected: '1', actual: 'x', manager: 'kubectl-edit' }],
        },
      ],
    });
    await repo.stop();
  });

  it('agent exits cleanly on SIGTERM', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`s${ns.slice(-6)}`);
    await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'first');
    const child = spawn(
      process.execPath,
      [
        bin,
        'agent',
        '--repo',
        repo.url,
        '--overlay',
        'test',
        '--interval',
        '1s',
        '--namespace',
        ns,
        '--http-port',
        '0',
        '--kubeconfig',
        cluster.kubeconfig,
      ],
      {
        env: { ...process.env, GROUNDWORK_CACHE_DIR: join(repo.repo.workDir, 'cache') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let logs = '';
    child.stdout.on('data', (d: Buffer) => (logs += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const applied = await eventually(
      () =>
        cluster.client
          .request<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${ns}/configmaps/a`)
          .catch(() => undefined),
      60_000,
      'the agent applied ConfigMap a',
    );
    expect(applied.data).toEqual({ value: '1' });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(logs).toContain('"msg":"stopped"');
    await repo.stop();
  });
});
