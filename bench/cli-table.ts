// The pure half of `bench cli`: medians, ratios and the Markdown table (tested in
// test/bench/cli-table.test.ts); bench/cli.ts runs the commands.

/** One run of a command: wall clock, and CPU of the process and everything it waited for. */
export interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** A Groundwork command and the kubectl command it is set beside, each run the same number of times. */
export interface CliRow {
  /** What is measured, e.g. `plan (5 objects, warm)`. */
  label: string;
  /** The Groundwork command line, as shown. */
  groundwork: string;
  /** The kubectl command line it is compared with (or what the baseline adds up, e.g. synth + kubectl). */
  kubectl: string;
  /** Runs of the installed build (dist/). */
  dist: readonly Sample[];
  /** Runs from the TypeScript sources (tsx), when measured. */
  source?: readonly Sample[];
  /** The baseline's runs, one per repetition (their sum where the baseline is two commands). */
  baseline: readonly Sample[];
  /** The target: the installed build's median wall clock at most this many times the baseline's. */
  targetRatio: number;
}

/** The middle value (the lower middle for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
}

/** `a / b` with two decimals and a `×`; `-` when either is missing or b is 0. */
export function ratio(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '-';
}

const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '-');
const wall = (samples: readonly Sample[]) => median(samples.map((s) => s.wallMs));
const cpu = (samples: readonly Sample[]) => median(samples.map((s) => s.cpuMs));

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '-');

/**
 * The report: per command, the median wall clock of the installed build and of the baseline and
 * their ratio, then their median CPU and its ratio, the target ratio and whether the CPU ratio
 * meets it (on a shared machine the wall clock mostly measures waiting for a core), and the
 * sources' wall clock when measured. `floor` is Node's own start (`node -e 0`) in the same run: no
 * command can be faster.
 */
export function cliTable(
  rows: readonly CliRow[],
  opts: { reps: number; floor: readonly Sample[]; load: readonly [number, number] },
): string {
  const withSource = rows.some((r) => r.source && r.source.length > 0);
  const head = [
    '| command | Groundwork (installed) | kubectl | ratio | CPU Groundwork / kubectl | CPU ratio | target | met (CPU) |',
    ...(withSource ? [' from the sources (tsx) |'] : []),
  ].join('');
  const rule = `|---|---|---|---|---|---|---|---|${withSource ? '---|' : ''}`;
  const lines = rows.map((r) => {
    const [g, k] = [wall(r.dist), wall(r.baseline)];
    const [gc, kc] = [cpu(r.dist), cpu(r.baseline)];
    const cells = [
      `${r.label}: \`${r.groundwork}\` vs \`${r.kubectl}\``,
      seconds(g),
      seconds(k),
      ratio(g, k),
      `${ms(gc)} / ${ms(kc)}`,
      ratio(gc, kc),
      `≤ ${r.targetRatio}×`,
      gc <= r.targetRatio * kc ? 'yes' : 'no',
      ...(withSource ? [r.source?.length ? seconds(wall(r.source)) : '-'] : []),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    `Median of ${opts.reps} interleaved runs, wall clock with process start; CPU is the process's and ` +
      `its children's (rusage, milliseconds). Node's own start (\`node -e 0\`) in this run: ` +
      `${seconds(wall(opts.floor))}, ${ms(cpu(opts.floor))} of CPU. Load average at the start and the end: ` +
      `${opts.load[0].toFixed(1)}, ${opts.load[1].toFixed(1)}.`,
    '',
    head,
    rule,
    ...lines,
    '',
  ].join('\n');
}
