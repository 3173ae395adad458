import { windowState } from '../core/window.js';
import type { Environment } from '../project/environments.js';
import { fleetRows, type ClusterObservation, type FleetRow } from './gates.js';
import type { PromotionResult } from './promotion.js';

/** The promotion into an environment as `promote --dry-run` decided it, or why it could not be decided. */
export type NextPromotion =
  | { readonly result: PromotionResult; readonly error?: undefined }
  | { readonly error: string; readonly result?: undefined };

/** One environment of the fleet: where its commits come from, its clusters, and its next promotion. */
export interface EnvironmentView {
  readonly name: string;
  readonly ref: string;
  readonly overlays: readonly string[];
  /** The environment it is promoted from; undefined when commits land on its ref directly. */
  readonly promotedFrom?: string;
  /** The environments promoted from it. */
  readonly promotesTo: readonly string[];
  readonly soak: string;
  /** Its promotion windows now (`windowState`'s reason); undefined when it has none. */
  readonly window?: { readonly open: boolean; readonly reason: string };
  /** One row per cluster and overlay of this environment (`fleetRows`, as `fleet status` prints them). */
  readonly rows: readonly FleetRow[];
  /** Overlays of the environment that no cluster of the fleet reported. */
  readonly missing: readonly string[];
  /** The promotion into it (only for an environment with `promotedFrom`). */
  readonly next?: NextPromotion;
}

/**
 * The Fleet page's data, read at one moment: plain values, so the page is a pure function of it.
 * Built by `fleetView`; read by the dashboard's fleet poller.
 */
export interface FleetView {
  /** When the clusters were read. */
  readonly at: Date;
  readonly platform: string;
  readonly environments: readonly EnvironmentView[];
  /** Rows in no environment: clusters that could not be read, and overlays groundwork.yaml does not place. */
  readonly others: readonly FleetRow[];
  /** Problems of the read as a whole (commits behind could not be counted, ...). */
  readonly problems: readonly string[];
}

/**
 * Groups `fleet status`'s rows (`fleetRows`, the same function) by environment, in groundwork.yaml's
 * order, and attaches each environment's promotion windows at `now` and the promotion into it
 * (computed by the caller with `promote`, dry run). Rows of unreachable clusters and of overlays in
 * no environment go to `others`: an unreachable cluster's environment is unknown, since it is read
 * from the PlatformSync it could not list. Pure.
 */
export function fleetView(input: {
  readonly platform: string;
  readonly environments: readonly Environment[];
  readonly observations: readonly ClusterObservation[];
  readonly behind?: ReadonlyMap<string, number>;
  /** By environment name: the promotion into it. */
  readonly promotions?: ReadonlyMap<string, NextPromotion>;
  readonly problems?: readonly string[];
  readonly now: Date;
}): FleetView {
  const rows = fleetRows({
    platform: input.platform,
    environments: input.environments,
    observations: input.observations,
    ...(input.behind ? { behind: input.behind } : {}),
  });
  const environments = input.environments.map((env): EnvironmentView => {
    const mine = rows.filter((r) => r.environment === env.name);
    const next = input.promotions?.get(env.name);
    const windows = env.windows.length > 0 ? windowState(env.windows, input.now) : undefined;
    return {
      name: env.name,
      ref: env.ref,
      overlays: env.overlays,
      ...(env.promotedFrom ? { promotedFrom: env.promotedFrom } : {}),
      promotesTo: input.environments.filter((e) => e.promotedFrom === env.name).map((e) => e.name),
      soak: env.soak,
      ...(windows ? { window: { open: windows.open, reason: windows.reason } } : {}),
      rows: mine,
      missing: env.overlays.filter((o) => !mine.some((r) => r.overlay === o)),
      ...(next ? { next } : {}),
    };
  });
  return {
    at: input.now,
    platform: input.platform,
    environments,
    others: rows.filter((r) => r.environment === undefined),
    problems: input.problems ?? [],
  };
}
