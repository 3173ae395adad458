// The Markdown table of one `bench flux` workload: Groundwork beside each Flux configuration. Pure.
import type { FluxConfig } from './configs.js';
import type { FluxRep } from './flux-rep.js';

/** Groundwork's engine figures of one repetition (milliseconds, writes). */
export interface GroundworkRep {
  readonly first: number;
  readonly change?: number;
  readonly noop: number;
  readonly noopCpu: number;
  readonly noopApi: number;
  readonly noopWrites: number;
}

/** One Flux configuration's repetitions; `unfinishedMs` when a first sync did not finish in time. */
export interface FluxSeries {
  readonly config: FluxConfig;
  readonly reps: readonly FluxRep[];
  readonly unfinishedMs?: number;
}

export interface FluxTableInput {
  readonly label: string;
  readonly reps: number;
  readonly groundwork: readonly GroundworkRep[];
  readonly flux: readonly FluxSeries[];
  /** The Kustomization interval of the drift measurement. */
  readonly driftInterval: string;
}

export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const bound = (ms: number) => (ms >= 120_000 ? `${(ms / 60_000).toFixed(0)} min` : s(ms));

type Measure = (r: GroundworkRep | FluxRep) => number | undefined;

/**
 * The table: one row per measure, a column for Groundwork and for each Flux configuration, then
 * Groundwork's ratio to each configuration. A configuration whose first sync did not finish shows
 * the bound (`not finished after …`, ratio `< x×`) and no other figure. Medians over the
 * repetitions each side completed.
 */
export function renderFluxTable(input: FluxTableInput): string {
  const { groundwork: gw, flux } = input;
  const med = (reps: readonly (GroundworkRep | FluxRep)[], m: Measure): number | undefined => {
    const xs = reps.map(m).filter((x): x is number => x !== undefined);
    return xs.length ? median(xs) : undefined;
  };
  const row = (measure: string, m: Measure, target: string, firstSync = false) => {
    const g = med(gw, m);
    const cells = flux.map((f) =>
      f.unfinishedMs !== undefined && (firstSync || f.reps.length === 0)
        ? firstSync
          ? `not finished after ${bound(f.unfinishedMs)}`
          : ''
        : fmt(med(f.reps, m)),
    );
    const ratios = flux.map((f) => {
      if (g === undefined) return '';
      if (firstSync && f.unfinishedMs !== undefined) return `< ${(g / f.unfinishedMs).toFixed(3)}×`;
      const x = f.reps.length ? med(f.reps, m) : undefined;
      return x ? `${(g / x).toFixed(2)}×` : '';
    });
    return `| ${measure} | ${fmt(g)} | ${cells.join(' | ')} | ${ratios.join(' | ')} | ${target} |`;
  };
  const unfinished = flux.filter((f) => f.unfinishedMs !== undefined).map((f) => f.config.title);
  const drift = flux.map((f) => (f.reps[0]?.drift !== undefined ? s(f.reps[0].drift) : ''));
  const requests = flux.map((f) => (f.reps.length ? `${median(f.reps.map((r) => r.noopReq))} requests` : ''));
  return [
    `### ${input.label} (median of ${input.reps}, interleaved, fresh namespaces${unfinished.length ? `; first sync not finished: ${unfinished.join(', ')}` : ''})`,
    '',
    `| measure | Groundwork | ${flux.map((f) => f.config.title).join(' | ')} | ${flux.map((f) => `Groundwork / ${f.config.title}`).join(' | ')} | target |`,
    `|---|---|${flux.map(() => '---|---|').join('')}---|`,
    row('first sync (new revision to applied)', (r) => r.first, '≤ 0.5× (5k, 20k)', true),
    row('one-object change', (r) => r.change, ''),
    row('no-op reconcile, wall', (r) => r.noop, ''),
    row('no-op CPU, tool + apiserver', (r) => r.noopCpu + r.noopApi, '≤ 0.10×'),
    row('no-op CPU of the tool alone', (r) => r.noopCpu, ''),
    `| no-op writes (Groundwork) / dry-run and write requests (Flux, audit log) | ${Math.max(...gw.map((r) => r.noopWrites))} writes | ${requests.join(' | ')} | ${flux.map(() => '').join(' | ')} | 0 writes |`,
    `| out-of-band edit corrected (Flux: interval ${input.driftInterval}, one run) | see the agent benchmark | ${drift.join(' | ')} | ${flux.map(() => '').join(' | ')} | |`,
    '',
  ].join('\n');
}

function fmt(ms: number | undefined): string {
  return ms === undefined ? '' : s(ms);
}
