import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorMessage, GroundworkError } from '../core/errors.js';
import { trustedKeysFromFiles } from '../source/trust/trusted-keys-files.js';
import { CONFIG_FILE, loadProjectConfig, type ProjectConfig } from '../project/config.js';
import { FleetPoller } from '../ui/fleet-poller.js';
import type { FleetReader } from '../ui/fleet-state.js';
import { readContext } from './actions/fleet.js';
import { parseDuration } from '../core/duration.js';
import { FleetViewReader, type FleetReadContext } from './fleet-read.js';

/** The flags of `groundwork ui` that choose the fleet (as `fleet status` has them). */
export interface UiFleetFlags {
  dir?: string;
  fleet?: string;
  kubeconfig?: string;
  repo?: string;
  clusterTimeout?: string;
  fleetInterval?: string;
  trustedKeys?: string[];
}

/** The Fleet page's refresh: 30 s by default, from 5 s to 1 h. */
const FLEET_INTERVAL = { defaultMs: 30_000, minMs: 5_000, maxMs: 3_600_000 } as const;

/** `--fleet-interval`: a duration from 5s to 1h, else `InvalidFlag` (the value is not echoed beyond 32 characters). */
export function fleetIntervalOf(flag: string | undefined): number {
  if (flag === undefined) return FLEET_INTERVAL.defaultMs;
  let ms = NaN;
  try {
    ms = parseDuration(flag);
  } catch {
    ms = NaN;
  }
  if (!(ms >= FLEET_INTERVAL.minMs && ms <= FLEET_INTERVAL.maxMs))
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--fleet-interval',
      message: `not a duration from 5s to 1h: ${JSON.stringify(flag.slice(0, 32))}`,
      fix: 'pass e.g. 30s or 2m, or leave --fleet-interval out (30s)',
    });
  return ms;
}

/**
 * The Fleet page of `groundwork ui`: the platform's groundwork.yaml in `--dir` (default `.`) and
 * the fleet of `--fleet FILE`, else `fleet.yaml` there, else every context of the kubeconfig (as
 * `fleet status`). Everything is checked here, before the server starts: with `--dir` or `--fleet`
 * a missing or invalid groundwork.yaml or fleet file throws (exit 2), naming the file and never
 * quoting it; found in the working directory only, a problem turns the Fleet page off (said there
 * and by `warn`). Outside a platform repository without `--fleet` the page only says how to get one. The fleet is read
 * once per interval for every browser (`FleetPoller`), from the first visit to the page on.
 */
export async function uiFleet(
  flags: UiFleetFlags,
  opts: { warn?: (message: string) => void } = {},
): Promise<{ reader: FleetReader; stop(): Promise<void> }> {
  const intervalMs = fleetIntervalOf(flags.fleetInterval);
  const dir = resolve(flags.dir ?? '.');
  const none = (unavailable: string) => ({
    reader: {
      state: () => ({ reading: false, intervalMs, unavailable }),
      wanted: () => {},
      onChange: () => () => {},
    },
    stop: async () => {},
  });
  // Asked for (--dir or --fleet): every problem stops groundwork ui. Found in the working directory
  // only: a problem is said on the Fleet page (and stderr), and the other pages work.
  const implicit = flags.fleet === undefined && flags.dir === undefined;
  if (implicit && !existsSync(join(dir, CONFIG_FILE)))
    return none(
      `No ${CONFIG_FILE} in ${dir}: run groundwork ui in the platform repository, or pass --dir (and --fleet FILE) to see the fleet.`,
    );
  let setup: { config: ProjectConfig; ctx: FleetReadContext };
  try {
    const config = await loadProjectConfig(dir);
    setup = {
      config,
      ctx: await readContext({ ...flags, clusterTimeout: flags.clusterTimeout ?? '10s' }, dir),
    };
  } catch (err) {
    if (!implicit) throw err;
    const message = `${errorMessage(err)} (the other pages are not affected; fix it, or pass --dir or --fleet)`;
    opts.warn?.(`the Fleet page is off: ${message}`);
    return none(`No fleet: ${message}`);
  }
  const { config, ctx } = setup;
  const trustedKeys = flags.trustedKeys?.length ? await trustedKeysFromFiles(flags.trustedKeys) : undefined;
  const reader = new FleetViewReader(ctx, {
    platform: config.name,
    environments: config.environments ?? [],
    ...(trustedKeys ? { trustedKeys } : {}),
  });
  const poller = new FleetPoller({ read: () => reader.read(), intervalMs });
  return {
    reader: poller,
    stop: async () => {
      await poller.stop();
      await reader.close();
    },
  };
}
