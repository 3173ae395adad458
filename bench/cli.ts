// The everyday commands at a terminal (issues 20 and 36): `--help`, `version --client`,
// `completion bash`, and `plan` and `drift` of three platforms (5 objects; 200 objects; two Helm
// charts), unchanged, each against its kubectl counterpart (`kubectl diff --server-side -f` of the
// same objects) in the same run on one local control plane, interleaved; and `plan` of a changed
// platform against one `groundwork synth` of it plus `kubectl diff`. Wall clock includes process
// start; CPU is the process's and its children's (the synth child).
// Usage: npm run bench -- cli [--reps 5] [--source]   (--source: also from the sources, via tsx)
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import {
  appManifests,
  helmPlatform,
  largePlatform,
  smallPlatform,
  writeRepository,
  type CliPlatform,
} from './cli-platforms.js';
import { cliTable, type CliRow, type Sample } from './cli-table.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'groundwork.js');

/**
 * Runs `"$@"` in bash and prints its wall clock (microseconds, from `$EPOCHREALTIME` around it) and
 * then `times`: the second line is the CPU of bash's waited-for children, the command and
 * everything it waited for (getrusage, to the millisecond; /proc's ticks are 10 ms).
 */
const MEASURE =
  't0=$EPOCHREALTIME; "$@" >/dev/null 2>"$GW_BENCH_ERR"; rc=$?; t1=$EPOCHREALTIME; ' +
  'echo $(( ${t1/./} - ${t0/./} )); times; exit $rc';

/** `times`' `0m0.045s` as milliseconds. */
function timesMs(field: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(field);
  return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : Number.NaN;
}

let runs = 0;

/** Runs a command to its end; rejects unless it exits with one of `codes`. */
export function timed(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  codes = [0],
): Promise<Sample> {
  const errFile = join(tmpdir(), `gw-bench-cli-${process.pid}-${++runs}.err`);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'bash',
      ['-c', MEASURE, 'measure', cmd, ...args],
      { env: { ...env, GW_BENCH_ERR: errFile }, maxBuffer: 1 << 26 },
      (_err, stdout) => {
        const [wallUs, , children] = stdout.trim().split('\n');
        const [user, sys] = (children ?? '').trim().split(/\s+/);
        const sample = { wallMs: Number(wallUs) / 1000, cpuMs: timesMs(user ?? '') + timesMs(sys ?? '') };
        let stderr = '';
        try {
          stderr = readFileSync(errFile, 'utf8');
        } catch {
          // nothing written
        }
        void rm(errFile, { force: true });
        if (codes.includes(child.exitCode ?? -1) && Number.isFinite(sample.cpuMs)) resolve(sample);
        else reject(new Error(`${cmd} ${args.join(' ')} exited ${child.exitCode}: ${stderr.slice(-2000)}`));
      },
    );
  });
}

/** A command of the bench and its baseline: one kubectl command, or several whose times add up. */
interface Measured {
  label: string;
  g: string[];
  k: string[][];
  /** Shown for the baseline, when it is not the kubectl command line. */
  kShown?: string;
  targetRatio: number;
  /** Exit codes that count as success for the Groundwork command. @default [0] */
  codes?: number[];
  /** More environment for the Groundwork command. */
  env?: NodeJS.ProcessEnv;
  /** Runs before each repetition of the Groundwork command and of its baseline (the changed platform's edit). */
  before?: () => Promise<void>;
}

export async function benchCli(opts: { reps?: number; source?: boolean } = {}): Promise<string> {
  const reps = opts.reps ?? 5;
  const load0 = loadavg()[0]!;
  const cp = await LocalControlPlane.start();
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-cli-'));
  try {
    const kubectl = cp.info.binaries.kubectl!;
    const env = { ...process.env, KUBECONFIG: cp.info.kubeconfig };
    const dist = { ...env, GROUNDWORK_RUN_FROM: 'dist' };
    const source = { ...env, GROUNDWORK_RUN_FROM: '' };
    // Warm: each platform applied by Groundwork (plan and drift are no-ops), its synth result
    // cached, and what it synthesizes written out for kubectl.
    const setUp = async (p: CliPlatform) => {
      const repo = join(work, p.name);
      await writeRepository(repo, p);
      await timed(process.execPath, [bin, 'apply', '--dir', repo, '--no-wait'], dist);
      const file = join(work, `${p.name}.yaml`);
      await writeFile(
        file,
        execFileSync(process.execPath, [bin, 'synth', '--dir', repo], { env: dist, maxBuffer: 1 << 26 }),
      );
      return { p, repo, file };
    };
    const platforms = [
      await setUp(smallPlatform('bench-cli')),
      await setUp(largePlatform('bench-cli-large')),
      await setUp(helmPlatform('bench-cli-helm')),
    ];
    const changed = await setUp(smallPlatform('bench-cli-changed'));
    const changedFile = join(changed.repo, 'manifests', 'app.yaml');
    let edits = 0;
    // A new greeting in the work tree: no synth result of it is cached.
    const edit = () => writeFile(changedFile, appManifests(changed.p.name, `edit-${process.pid}-${++edits}`));
    const light = (label: string, args: string[]): Measured => ({
      label,
      g: args,
      k: [args],
      targetRatio: 1.5,
    });
    const commands: Measured[] = [
      light('help', ['--help']),
      light('version', ['version', '--client']),
      light('completion', ['completion', 'bash']),
      // kubectl diff exits 1 when it finds a difference (kubectl's field manager is not Groundwork's).
      ...platforms.flatMap(({ p, repo, file }) =>
        ['plan', 'drift'].map((cmd) => ({
          label: `${cmd} (${p.label})`,
          g: [cmd, '--dir', repo],
          k: [['diff', '--server-side', '-f', file]],
          targetRatio: 2,
        })),
      ),
      {
        // A build's first run of a command: no V8 code cache yet (bin/bundled-cli.js).
        label: `plan (${platforms[0]!.p.label}, no code cache)`,
        g: ['plan', '--dir', platforms[0]!.repo],
        env: { GROUNDWORK_CODE_CACHE: '0' },
        k: [['diff', '--server-side', '-f', platforms[0]!.file]],
        targetRatio: 2,
      },
      {
        label: 'plan (5 objects, changed)',
        g: ['plan', '--dir', changed.repo],
        codes: [1],
        k: [
          ['synth', '--dir', changed.repo],
          // A field Groundwork manages changes: kubectl would conflict without --force-conflicts.
          ['diff', '--server-side', '--force-conflicts', '-f', changedFile],
        ],
        kShown: 'groundwork synth <repo>` + `kubectl diff --server-side --force-conflicts -f <file>',
        targetRatio: 1,
        before: edit,
      },
    ];
    const samples = commands.map(() => ({
      dist: [] as Sample[],
      source: [] as Sample[],
      kubectl: [] as Sample[],
    }));
    const floor: Sample[] = [];
    const baseline = async (c: Measured): Promise<Sample> => {
      const parts: Sample[] = [];
      for (const args of c.k)
        parts.push(
          args[0] === 'synth'
            ? await timed(process.execPath, [bin, ...args], dist)
            : await timed(kubectl, args, env, [0, 1]),
        );
      return { wallMs: sum(parts.map((x) => x.wallMs)), cpuMs: sum(parts.map((x) => x.cpuMs)) };
    };
    for (let rep = -1; rep < reps; rep++) {
      const keep = <T>(list: T[], value: T) => rep >= 0 && list.push(value); // rep -1 warms up
      keep(floor, await timed(process.execPath, ['-e', '0'], env));
      for (const [i, c] of commands.entries()) {
        await c.before?.();
        keep(samples[i]!.dist, await timed(process.execPath, [bin, ...c.g], { ...dist, ...c.env }, c.codes));
        await c.before?.();
        keep(samples[i]!.kubectl, await baseline(c));
        if (opts.source) {
          await c.before?.();
          keep(samples[i]!.source, await timed(process.execPath, [bin, ...c.g], source, c.codes));
        }
      }
    }
    const shown = (args: readonly string[]) =>
      args.map((a) => (a.startsWith(work) ? (a.endsWith('.yaml') ? '<file>' : '<repo>') : a)).join(' ');
    const rows: CliRow[] = commands.map((c, i) => ({
      label: c.label,
      groundwork: `groundwork ${shown(c.g)}`,
      kubectl: c.kShown ?? `kubectl ${shown(c.k[0]!)}`,
      dist: samples[i]!.dist,
      ...(opts.source ? { source: samples[i]!.source } : {}),
      baseline: samples[i]!.kubectl,
      targetRatio: c.targetRatio,
    }));
    return cliTable(rows, { reps, floor, load: [load0, loadavg()[0]!] });
  } finally {
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
