// `npm run bench -- <name> [--sizes a,b]`: runs one benchmark (or all) and prints a Markdown report.
import { benchEngine } from './engine.js';
import { benchSynth } from './synth.js';
import { benchAgent } from './agent.js';
import { benchRealSets } from './real-sets.js';
import { benchCatalog } from './catalog.js';
import { benchCli } from './cli.js';
import { benchCliResident } from './cli-resident.js';
import { benchSoak } from './soak.js';
import { benchUi } from './ui.js';
import { benchUiIdle } from './ui-idle.js';
import { benchDashboardAuthz } from './dashboard-authz.js';
import { benchFlux, configMaps, mixedPlatform } from './flux/bench.js';
import { benchHub } from './hub.js';
import { parseDuration } from '../src/core/duration.js';

const args = process.argv.slice(2);
const which = args.find((a) => !a.startsWith('--')) ?? 'all';
const sizesArg = args[args.indexOf('--sizes') + 1];
const sizes = args.includes('--sizes') && sizesArg ? sizesArg.split(',').map(Number) : undefined;
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const mixed = Number(flag('--mixed') ?? 150);
const reps = flag('--reps') ? Number(flag('--reps')) : undefined;
const driftInterval = flag('--drift-interval');
const fluxTimeout = flag('--flux-timeout');
const snapshots = flag('--snapshots');

const benches: Record<string, () => Promise<string>> = {
  cli: () => benchCli({ ...(reps ? { reps } : {}), source: args.includes('--source') }),
  // Not part of `all`: a prototype's figure (bench/resident-server.ts).
  'cli-resident': () => benchCliResident(reps ? { reps } : {}),
  synth: () => benchSynth(),
  ui: () => benchUi(sizes ?? [5000, 1000], reps),
  'ui-idle': () =>
    benchUiIdle({
      ...(flag('--dashboards') ? { dashboards: Number(flag('--dashboards')) } : {}),
      ...(flag('--window') ? { windowMs: parseDuration(flag('--window')!) } : {}),
      ...(sizes ? { objects: sizes[0]! } : {}),
    }),
  'dashboard-authz': () => benchDashboardAuthz(sizes ?? [5000], reps),
  engine: () => benchEngine(sizes ?? [1000, 5000], reps),
  agent: () => benchAgent(sizes ?? [5000]),
  'real-sets': () => benchRealSets(),
  catalog: () =>
    benchCatalog(
      sizes
        ? sizes.map((entries) => ({ entries, perPackage: 100 }))
        : [
            { entries: 10_000, perPackage: 100 },
            { entries: 100_000, perPackage: 100 },
            // Few packages with long channels: the channel graphs at scale.
            { entries: 100_000, perPackage: 10_000 },
          ],
      reps,
    ),
  // Not part of `all`: it runs for --duration (default 60m).
  soak: () =>
    benchSoak({
      durationMs: parseDuration(flag('--duration') ?? '60m'),
      ...(flag('--interval') ? { interval: flag('--interval')! } : {}),
      ...(snapshots ? { snapshotMinutes: snapshots.split(',').map(Number) } : {}),
      ...(flag('--out') ? { dir: flag('--out')! } : {}),
      ...(flag('--restart-every') ? { restartEveryMs: parseDuration(flag('--restart-every')!) } : {}),
    }),
  // Not part of `all`: minutes per size. `--clusters 100,1000` (default 1000), `--window 2m`,
  // `--real-agents 3` (the default; 0: simulated members only).
  hub: () =>
    benchHub((flag('--clusters') ?? '1000').split(',').map(Number), {
      ...(flag('--window') ? { windowMs: parseDuration(flag('--window')!) } : {}),
      ...(flag('--connections') ? { connections: Number(flag('--connections')) } : {}),
      ...(flag('--change-every') ? { changeEveryMs: parseDuration(flag('--change-every')!) } : {}),
      ...(args.includes('--no-rollout') ? { rollout: false } : {}),
      // Real agents on control planes of their own beside the simulated members (0: none).
      ...(flag('--real-agents') ? { realAgents: count('--real-agents', flag('--real-agents')!) } : {}),
    }),
  flux: () =>
    benchFlux([...(sizes ?? [1000, 5000]).map(configMaps), ...(mixed > 0 ? [mixedPlatform(mixed)] : [])], {
      ...(reps ? { reps } : {}),
      ...(driftInterval ? { driftInterval } : {}),
      ...(fluxTimeout ? { fluxTimeoutMs: parseDuration(fluxTimeout) } : {}),
    }),
};

for (const [name, fn] of Object.entries(benches)) {
  if (which !== 'all' ? which !== name : name === 'soak' || name === 'hub' || name === 'cli-resident')
    continue;
  process.stdout.write(`## bench: ${name}\n\n${await fn()}\n`);
}

/** A flag's whole number of at least 0; a bench never silently runs with another value. */
function count(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} wants a whole number of at least 0, not ${JSON.stringify(value)}`);
  return n;
}
