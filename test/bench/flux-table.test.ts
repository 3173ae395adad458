import { describe, expect, it } from 'vitest';
import { CONFIG_LABEL, controllerArgs, FLUX_CONFIGS } from '../../bench/flux/configs.js';
import type { FluxRep } from '../../bench/flux/flux-rep.js';
import { renderFluxTable, type GroundworkRep } from '../../bench/flux/flux-table.js';

const [defaults, tuned] = FLUX_CONFIGS as [(typeof FLUX_CONFIGS)[0], (typeof FLUX_CONFIGS)[0]];
const gw = (first: number): GroundworkRep => ({
  first,
  change: 100,
  noop: 200,
  noopCpu: 300,
  noopApi: 100,
  noopWrites: 0,
});
const flux = (first: number, drift?: number): FluxRep => ({
  first,
  change: 1000,
  noop: 2000,
  noopCpu: 3000,
  noopApi: 1000,
  noopReq: 1009,
  peakMb: 100,
  ...(drift !== undefined ? { drift } : {}),
});

describe('the Flux configurations of bench flux', () => {
  it('runs the tuned controller with its client limits raised, the default one as shipped', () => {
    expect(tuned.args).toEqual(['--kube-api-qps=1000', '--kube-api-burst=2000', '--concurrent-ssa=16']);
    expect(defaults.args).toEqual([]);
  });

  it('gives each controller only the Kustomizations labelled for its configuration', () => {
    const args = controllerArgs(tuned, { metrics: 1, health: 2 });
    expect(args).toContain(`--watch-label-selector=${CONFIG_LABEL}=tuned`);
    expect(args).toContain('--concurrent-ssa=16');
    expect(args).toContain('--metrics-addr=127.0.0.1:1');
    expect(controllerArgs(defaults, { metrics: 1, health: 2 })).toContain(
      `--watch-label-selector=${CONFIG_LABEL}=defaults`,
    );
  });
});

describe('renderFluxTable', () => {
  it('sets Groundwork beside each configuration, with a ratio to each (medians)', () => {
    const table = renderFluxTable({
      label: '1,000 ConfigMaps',
      reps: 3,
      groundwork: [gw(1000), gw(3000), gw(2000)],
      flux: [
        { config: defaults, reps: [flux(8000, 60_000), flux(9000), flux(10_000)] },
        { config: tuned, reps: [flux(4000, 61_000), flux(5000), flux(4000)] },
      ],
      driftInterval: '1m',
    });
    expect(table).toContain(
      '| measure | Groundwork | Flux defaults | Flux tuned | Groundwork / Flux defaults | Groundwork / Flux tuned | target |',
    );
    expect(table).toContain(
      '| first sync (new revision to applied) | 2.00 s | 9.00 s | 4.00 s | 0.22× | 0.50× | ≤ 0.5× (5k, 20k) |',
    );
    expect(table).toContain(
      '| no-op CPU, tool + apiserver | 0.40 s | 4.00 s | 4.00 s | 0.10× | 0.10× | ≤ 0.10× |',
    );
    expect(table).toContain('| 0 writes | 1009 requests | 1009 requests |');
    expect(table).toContain('| see the agent benchmark | 60.00 s | 61.00 s |');
  });

  it('shows a first sync that did not finish as a bound, and no other figure of that configuration', () => {
    const table = renderFluxTable({
      label: '20,000 ConfigMaps',
      reps: 1,
      groundwork: [gw(20_000)],
      flux: [
        { config: defaults, reps: [], unfinishedMs: 900_000 },
        { config: tuned, reps: [flux(40_000)] },
      ],
      driftInterval: '1m',
    });
    expect(table).toContain('first sync not finished: Flux defaults');
    expect(table).toContain(
      '| first sync (new revision to applied) | 20.00 s | not finished after 15 min | 40.00 s | < 0.022× | 0.50× |',
    );
    expect(table).toContain('| one-object change | 0.10 s |  | 1.00 s |  | 0.10× |  |');
  });
});
