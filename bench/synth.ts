// Synth benchmark (issue 3): Groundwork's synth of a scaled platform against a plain cdk8s app that
// emits the same objects with synthYaml(), each in its own process (time and peak memory), in one run.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Result {
  objects: number;
  bytes: number;
  ms: number;
  maxRssMb: number;
}

export async function benchSynth(scales: number[] = [0.1, 1]): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'gw-synth-bench-'));
  const script = new URL('./synth-child.js', import.meta.url).pathname;
  const one = async (mode: string, scale: number): Promise<Result> => {
    const { stdout } = await run(
      process.execPath,
      ['--max-old-space-size=4096', script, mode, String(scale), join(work, `objects-${scale}.json`)],
      { maxBuffer: 1 << 26 },
    );
    return JSON.parse(stdout) as Result;
  };
  const rows = [
    '| scale | objects | Groundwork synth | plain cdk8s synthYaml() | ratio (target ≤ 1.5×) | Groundwork peak RSS | plain peak RSS |',
    '|---|---|---|---|---|---|---|',
  ];
  const results = new Map<number, { g: Result; p: Result }>();
  try {
    for (const scale of scales) {
      // Best of three for time; memory from the same runs (max).
      const gs: Result[] = [];
      const ps: Result[] = [];
      for (let i = 0; i < 3; i++) {
        gs.push(await one('groundwork', scale));
        ps.push(await one('plain', scale));
      }
      const g = {
        ...gs[0]!,
        ms: Math.min(...gs.map((r) => r.ms)),
        maxRssMb: Math.max(...gs.map((r) => r.maxRssMb)),
      };
      const p = {
        ...ps[0]!,
        ms: Math.min(...ps.map((r) => r.ms)),
        maxRssMb: Math.max(...ps.map((r) => r.maxRssMb)),
      };
      results.set(scale, { g, p });
      rows.push(
        `| ${scale}× | ${g.objects} | ${(g.ms / 1000).toFixed(2)} s | ${(p.ms / 1000).toFixed(2)} s | ${(g.ms / p.ms).toFixed(2)}× | ${g.maxRssMb.toFixed(0)} MB | ${p.maxRssMb.toFixed(0)} MB |`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const small = results.get(Math.min(...scales));
  const large = results.get(Math.max(...scales));
  if (small && large && small !== large) {
    rows.push(
      '',
      `Scaling: ${(large.g.objects / small.g.objects).toFixed(1)}× the objects took ${(large.g.ms / small.g.ms).toFixed(1)}× the time (target: 10× the objects in at most 12× the time).`,
    );
  }
  rows.push(
    '',
    'Scale 1 = 1,000 operators (Namespace, OperatorGroup, Subscription each), 1,000 MachineConfigs and 5,000 ConfigMaps. Groundwork time includes construct validation, finalize (OperatorGroups, duplicate checks), canonical ordering, hashing and rendering YAML.',
  );
  return rows.join('\n');
}
