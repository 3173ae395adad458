import { readFileSync } from 'node:fs';
import { UpdateService, parseCincinnati } from '../../../src/dev/simulators/cincinnati.js';
import { fixturePath } from '../../harness/fixtures.js';
import type { KubeClient } from '../../../src/cluster/client.js';
import type { K8sObject } from '../../../src/core/object.js';
import type { Simulator } from '../../../src/dev/simulators/loop.js';

/**
 * Runs simulator passes until `check` returns a value, at most `maxTicks` passes. Bounded by passes,
 * not time; the short pause between passes lets the apiserver establish CRDs and run GC.
 */
export async function tickUntil<T>(
  sims: Simulator | readonly Simulator[],
  check: () => Promise<T | undefined>,
  what: string,
  maxTicks = 30,
): Promise<T> {
  const all = Array.isArray(sims) ? sims : [sims as Simulator];
  for (let i = 0; i < maxTicks; i++) {
    for (const sim of all) await sim.tick();
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`still not ${what} after ${maxTicks} passes`);
}

/** Sorted keys of an object (for comparing status shapes with real dumps). */
export function keysOf(obj: unknown): string[] {
  return obj && typeof obj === 'object' ? Object.keys(obj).sort() : [];
}

/** GET an object. */
export function get(client: KubeClient, path: string): Promise<K8sObject> {
  return client.request<K8sObject>('GET', path);
}

/** Writes (create/update/patch/delete) a client has sent so far. */
export function writes(client: KubeClient): number {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].reduce((n, m) => n + (client.counts[m] ?? 0), 0);
}

/** The simulated update service serving `update-graphs/<file>` fixtures (Cincinnati responses). */
export function fixtureUpdateService(...files: readonly string[]): UpdateService {
  return UpdateService.from(
    ...files.map((f) => parseCincinnati(readFileSync(fixturePath(`update-graphs/${f}`), 'utf8'), f)),
  );
}
