import { z } from 'zod';
import { isNotFound } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { GroundworkError } from '../core/errors.js';
import type { MaintenanceWindow } from '../core/window.js';
import type { Environment } from '../project/environments.js';
import { durationSeconds } from '../project/rollout-config.js';
import { HUB_API_VERSION } from './hub-names.js';
import {
  ROLLOUT_PATHS,
  isActive,
  readFleetRollout,
  type FleetRolloutObject,
  type RolloutChange,
  type RolloutSpec,
} from './rollout-schema.js';

// What `groundwork fleet rollout start|status|pause|resume|abort` do on the hub: create a
// FleetRollout from groundwork.yaml's `environments[].rollout`, read them, and flip `paused` or
// `aborted` in their spec. The controller does the rest.

const refused = (subject: string, message: string, fix: string) =>
  new GroundworkError({ code: 'RolloutRefused', subject, message, fix });

/**
 * The FleetRollout spec for `revision` of `env`: its waves and limits copied from the
 * environment's `rollout:` (so editing groundwork.yaml never changes a rollout in flight), its ref,
 * its windows. Refuses an environment without `rollout:` and a revision that is not a full commit
 * id. Pure.
 */
export function rolloutSpecOf(
  env: Environment,
  revision: string,
  changes: readonly RolloutChange[],
): RolloutSpec {
  const config = env.rollout;
  if (!config)
    throw refused(
      `environment ${env.name}`,
      'has no rollout: in groundwork.yaml',
      'add environments[].rollout with its waves (docs/hub.md "Rollouts"), or move its ref with promote',
    );
  if (!/^[0-9a-f]{40}$/.test(revision))
    throw refused(
      '--revision',
      `${JSON.stringify(revision.slice(0, 64))} is not a full commit id`,
      'give the 40-hex id: git rev-parse <commit>',
    );
  return {
    environment: env.name,
    ref: env.ref,
    revision,
    ...(changes.length ? { changes: [...new Set(changes)] } : {}),
    waves: config.waves.map((w) => ({
      name: w.name,
      ...(w.selector ? { selector: Object.entries(w.selector).map(([key, value]) => ({ key, value })) } : {}),
      ...(w.percent !== undefined ? { percent: w.percent } : {}),
    })),
    maxUnavailable: config.maxUnavailable,
    maxFailures: config.maxFailures,
    bakeSeconds: durationSeconds(config.bakeTime),
    progressDeadlineSeconds: durationSeconds(config.progressDeadline),
    windowLabel: config.windowLabel,
    ...(config.windows.length
      ? { windows: config.windows.map((w) => ({ name: w.name, windows: copyWindows(w.windows) })) }
      : {}),
    ...(env.windows.length ? { defaultWindows: copyWindows(env.windows) } : {}),
  };
}

const copyWindows = (ws: readonly MaintenanceWindow[]) =>
  ws.map((w) => ({
    ...(w.days ? { days: [...w.days] } : {}),
    start: w.start,
    duration: w.duration,
    ...(w.timezone ? { timezone: w.timezone } : {}),
  }));

const listSchema = z.object({ items: z.array(z.unknown()).max(10_000) });

/** Every FleetRollout of the hub, newest first. */
export async function listRollouts(client: KubeClient, namespace: string): Promise<FleetRolloutObject[]> {
  try {
    const list = await client.request('GET', ROLLOUT_PATHS.list(namespace), { schema: listSchema });
    return list.items
      .map(readFleetRollout)
      .sort(
        (a, b) =>
          (b.creationTimestamp ?? '').localeCompare(a.creationTimestamp ?? '') ||
          a.name.localeCompare(b.name),
      );
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new GroundworkError({
      code: 'HubNotInstalled',
      subject: 'fleet rollout',
      message: 'the cluster serves no FleetRollouts (hub.groundwork.io)',
      fix: 'point --hub at the hub cluster, where groundwork hub bootstrap installed the hub',
    });
  }
}

/** One FleetRollout; `RolloutNotFound` when there is none of that name. */
export async function getRollout(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<FleetRolloutObject> {
  try {
    return readFleetRollout(
      await client.request('GET', ROLLOUT_PATHS.one(namespace, name), { schema: z.unknown() }),
    );
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new GroundworkError({
      code: 'RolloutNotFound',
      subject: `FleetRollout ${name}`,
      message: `the hub has no rollout ${name}`,
      fix: 'list them: groundwork fleet rollout status --hub <kubeconfig>',
    });
  }
}

/**
 * Creates the FleetRollout `name` (default `<environment>-<12 hex of the commit>`). Refuses while
 * another rollout of the environment is still active (progressing or paused): abort it first.
 */
export async function startRollout(
  client: KubeClient,
  namespace: string,
  spec: RolloutSpec,
  name = `${spec.environment}-${spec.revision.slice(0, 12)}`,
): Promise<FleetRolloutObject> {
  const active = (await listRollouts(client, namespace)).filter(
    (r) => r.spec.environment === spec.environment && isActive(r) && r.status?.phase !== 'Completed',
  );
  if (active.length > 0)
    throw refused(
      `environment ${spec.environment}`,
      `rollout ${active[0]!.name} of ${active[0]!.spec.revision.slice(0, 12)} is still ${active[0]!.status?.phase ?? 'starting'}`,
      `wait for it, or abort it: groundwork fleet rollout abort ${active[0]!.name}`,
    );
  const body = { apiVersion: HUB_API_VERSION, kind: 'FleetRollout', metadata: { name, namespace }, spec };
  try {
    return readFleetRollout(
      await client.request('POST', ROLLOUT_PATHS.list(namespace), { body, schema: z.unknown() }),
    );
  } catch (err) {
    if ((err as { status?: number }).status === 409)
      throw refused(`FleetRollout ${name}`, 'exists already', 'name the new rollout with --name');
    throw err;
  }
}

export type RolloutAction = 'pause' | 'resume' | 'abort';

/**
 * Pauses, resumes or aborts rollout `name` (a merge patch of `spec.paused` / `spec.aborted`).
 * Refuses what cannot be: anything of an aborted or succeeded rollout, resuming a halted one (a halt
 * is for good: start a rollout of a fixed commit), pausing a halted one.
 */
export async function changeRollout(
  client: KubeClient,
  namespace: string,
  name: string,
  action: RolloutAction,
): Promise<FleetRolloutObject> {
  const r = await getRollout(client, namespace, name);
  const phase = r.spec.aborted ? 'Aborted' : r.status?.phase;
  if (phase === 'Aborted' || phase === 'Succeeded')
    throw refused(`FleetRollout ${name}`, `is ${phase}: it releases nothing more`, 'start a new rollout');
  if (phase === 'Halted' && action !== 'abort')
    throw refused(
      `FleetRollout ${name}`,
      `is halted (${r.status?.halted?.reason ?? 'Halted'}): a halt is never lifted`,
      'fix the revision and start a new rollout of the fixed commit; abort this one to close it',
    );
  const spec = action === 'abort' ? { aborted: true } : { paused: action === 'pause' };
  return readFleetRollout(
    await client.request('PATCH', ROLLOUT_PATHS.one(namespace, name), {
      body: { spec },
      contentType: 'application/merge-patch+json',
      schema: z.unknown(),
    }),
  );
}
