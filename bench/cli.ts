// The everyday commands at a terminal (issue 20, "Speed of the everyday commands"): `--help`,
// `version --client`, `completion bash`, and `plan` and `drift` of a 5-object platform, warm,
// each against its kubectl counterpart in the same run on one local control plane, interleaved.
// Wall clock includes process start; CPU is the process's and its children's (the synth child).
// Usage: npm run bench -- cli [--reps 5] [--source]   (--source: also from the sources, via tsx)
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { cliTable, type CliRow, type Sample } from './cli-table.js';
import { writePlatformFiles } from './platform-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'groundwork.js');

/** Five objects of a small application, as a platform repository includes a file of manifests. */
const MANIFESTS = `apiVersion: v1
kind: Namespace
metadata: {name: bench-cli}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: app, namespace: bench-cli}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, namespace: bench-cli}
data: {greeting: hello}
---
apiVersion: v1
kind: Service
metadata: {name: app, namespace: bench-cli}
spec: {ports: [{port: 80}], selector: {app: app}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: bench-cli}
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec: {containers: [{name: app, image: registry.k8s.io/pause:3.10}]}
`;

const PLATFORM = `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Include(new Platform(scope, 'platform', { openshiftVersion: '4.16' }), 'app', { url: 'manifests/app.yaml' });
  },
});
`;

/** A committed platform repository holding MANIFESTS (a clean work tree, as `plan` usually sees). */
async function writeRepository(dir: string): Promise<string> {
  await writePlatformFiles(dir, {
    name: 'bench-cli',
    platform: PLATFORM,
    files: { 'manifests/app.yaml': MANIFESTS },
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench platform');
  return join(dir, 'manifests', 'app.yaml');
}

const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU milliseconds of this process's waited-for children so far (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticks;
}

/** Runs a command to its end; rejects unless it exits with one of `codes`. */
function timed(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, codes = [0]): Promise<Sample> {
  const [t, c] = [performance.now(), childrenCpuMs()];
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, [...args], { env, maxBuffer: 1 << 26 }, (_err, _out, stderr) => {
      const sample = { wallMs: performance.now() - t, cpuMs: childrenCpuMs() - c };
      if (codes.includes(child.exitCode ?? -1)) resolve(sample);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${child.exitCode}: ${stderr.slice(-2000)}`));
    });
  });
}

export async function benchCli(opts: { reps?: number; source?: boolean } = {}): Promise<string> {
  const reps = opts.reps ?? 5;
  const load0 = loadavg()[0]!;
  const cp = await LocalControlPlane.start();
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-cli-'));
  try {
    const repo = join(work, 'repo');
    const file = await writeRepository(repo);
    const kubectl = cp.info.binaries.kubectl!;
    const env = { ...process.env, KUBECONFIG: cp.info.kubeconfig };
    const dist = { ...env, GROUNDWORK_RUN_FROM: 'dist' };
    const source = { ...env, GROUNDWORK_RUN_FROM: '' };
    // Warm: the objects applied by Groundwork (plan and drift are no-ops), its synth bundle cached,
    // kubectl's discovery cache filled.
    await timed(process.execPath, [bin, 'apply', '--dir', repo, '--no-wait'], dist);
    const commands = [
      { label: 'help', g: ['--help'], k: ['--help'], targetMs: 150 },
      { label: 'version', g: ['version', '--client'], k: ['version', '--client'], targetMs: 150 },
      { label: 'completion', g: ['completion', 'bash'], k: ['completion', 'bash'], targetMs: 150 },
      // kubectl diff exits 1 when it finds a difference (kubectl's field manager is not Groundwork's).
      { label: 'plan', g: ['plan', '--dir', repo], k: ['diff', '--server-side', '-f', file], targetMs: 400 },
      {
        label: 'drift',
        g: ['drift', '--dir', repo],
        k: ['diff', '--server-side', '-f', file],
        targetMs: 400,
      },
    ];
    const samples = commands.map(() => ({
      dist: [] as Sample[],
      source: [] as Sample[],
      kubectl: [] as Sample[],
    }));
    const floor: Sample[] = [];
    for (let rep = -1; rep < reps; rep++) {
      const keep = <T>(list: T[], value: T) => rep >= 0 && list.push(value); // rep -1 warms up
      keep(floor, await timed(process.execPath, ['-e', '0'], env));
      for (const [i, c] of commands.entries()) {
        keep(samples[i]!.dist, await timed(process.execPath, [bin, ...c.g], dist));
        keep(samples[i]!.kubectl, await timed(kubectl, c.k, env, [0, 1]));
        if (opts.source) keep(samples[i]!.source, await timed(process.execPath, [bin, ...c.g], source));
      }
    }
    const rows: CliRow[] = commands.map((c, i) => ({
      label: c.label,
      groundwork: `groundwork ${c.g.map((a) => (a === repo ? '<repo>' : a)).join(' ')}`,
      kubectl: `kubectl ${c.k.map((a) => (a === file ? '<file>' : a)).join(' ')}`,
      dist: samples[i]!.dist,
      ...(opts.source ? { source: samples[i]!.source } : {}),
      baseline: samples[i]!.kubectl,
      targetMs: c.targetMs,
    }));
    return cliTable(rows, { reps, floor, load: [load0, loadavg()[0]!] });
  } finally {
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
}
