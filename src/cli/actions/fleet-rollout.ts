import { resolve } from 'node:path';
import { KubeClient } from '../../cluster/client.js';
import { GroundworkError } from '../../core/errors.js';
import { HUB_API_VERSION, HUB_NAMESPACE } from '../../hub/hub-names.js';
import {
  changeRollout,
  getRollout,
  listRollouts,
  rolloutSpecOf,
  startRollout,
  type RolloutAction,
} from '../../hub/rollout-commands.js';
import { ROLLOUT_CHANGES, type FleetRolloutObject, type RolloutChange } from '../../hub/rollout-schema.js';
import { rolloutText, rolloutsText } from '../../hub/rollout-text.js';
import { loadProjectConfig } from '../../project/config.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';
import { render } from '../render.js';

export interface RolloutFlags {
  hub: string;
  output?: string;
  format?: string;
}

export interface RolloutStartFlags extends RolloutFlags {
  revision: string;
  changes?: string;
  name?: string;
  dir: string;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const invalid = (subject: string, message: string, fix: string) =>
  new GroundworkError({ code: 'InvalidFlag', subject, message, fix });

/** `--changes cluster-version,machine-config` → the kinds; anything else is `InvalidFlag`. */
export function parseChanges(text: string | undefined): RolloutChange[] {
  if (text === undefined) return [];
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const k of kinds)
    if (!(ROLLOUT_CHANGES as readonly string[]).includes(k))
      throw invalid(
        '--changes',
        `${JSON.stringify(k.slice(0, 40))} is not a kind of change`,
        `use ${ROLLOUT_CHANGES.join(', ')}`,
      );
  return kinds as RolloutChange[];
}

/** A FleetRollout as `-o json|yaml` print it. */
const asObject = (r: FleetRolloutObject) => ({
  apiVersion: HUB_API_VERSION,
  kind: 'FleetRollout',
  metadata: {
    name: r.name,
    namespace: HUB_NAMESPACE,
    ...(r.creationTimestamp ? { creationTimestamp: r.creationTimestamp } : {}),
  },
  spec: r.spec,
  ...(r.status ? { status: r.status } : {}),
});

async function withHub<T>(hub: string, use: (client: KubeClient) => Promise<T>): Promise<T> {
  const client = await KubeClient.load({ kubeconfig: hub, userAgent: 'groundwork-fleet-rollout' });
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

/** `fleet rollout start <environment>`: the spec from groundwork.yaml, created on the hub. */
export async function runRolloutStart(
  environment: string,
  flags: RolloutStartFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  if (flags.name !== undefined && (flags.name.length > 253 || !DNS_SUBDOMAIN.test(flags.name)))
    throw invalid(
      '--name',
      `${JSON.stringify(flags.name.slice(0, 80))} is not an object name`,
      'name a DNS subdomain, e.g. prod-fix-1',
    );
  const changes = parseChanges(flags.changes);
  const config = await loadProjectConfig(resolve(flags.dir));
  const env = (config.environments ?? []).find((e) => e.name === environment);
  if (!env)
    throw new GroundworkError({
      code: 'UnknownEnvironment',
      subject: environment,
      message: `groundwork.yaml has no environment ${environment}`,
      fix: `name one of: ${(config.environments ?? []).map((e) => e.name).join(', ') || '(none: add environments)'}`,
    });
  const spec = rolloutSpecOf(env, flags.revision, changes);
  const created = await withHub(flags.hub, (client) => startRollout(client, HUB_NAMESPACE, spec, flags.name));
  process.stdout.write(
    render(asObject(created), outputOf(flags), {
      text: () =>
        `rollout ${created.name} started: ${spec.revision.slice(0, 12)} to ${spec.environment} in ${spec.waves.length} wave(s) (${spec.waves.map((w) => w.name).join(', ')})\nfollow it: groundwork fleet rollout status ${created.name} --hub ${flags.hub}\n`,
    }),
  );
  setExitCode(ExitCode.Ok);
}

/** `fleet rollout status [name]`: one rollout, or every rollout of the hub. */
export async function runRolloutStatus(
  name: string | undefined,
  flags: RolloutFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  await withHub(flags.hub, async (client) => {
    if (name === undefined) {
      const all = await listRollouts(client, HUB_NAMESPACE);
      const data = { apiVersion: 'groundwork.io/v1', kind: 'FleetRolloutList', items: all.map(asObject) };
      process.stdout.write(render(data, outputOf(flags), { text: () => rolloutsText(all) }));
    } else {
      const r = await getRollout(client, HUB_NAMESPACE, name);
      process.stdout.write(render(asObject(r), outputOf(flags), { text: () => rolloutText(r) }));
    }
  });
  setExitCode(ExitCode.Ok);
}

/** `fleet rollout pause|resume|abort <name>`. */
export async function runRolloutChange(
  action: RolloutAction,
  name: string,
  flags: RolloutFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  const r = await withHub(flags.hub, (client) => changeRollout(client, HUB_NAMESPACE, name, action));
  const done = { pause: 'paused', resume: 'resumed', abort: 'aborted' }[action];
  process.stdout.write(render(asObject(r), outputOf(flags), { text: () => `rollout ${r.name} ${done}\n` }));
  setExitCode(ExitCode.Ok);
}
