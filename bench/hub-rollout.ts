// The rollout figures of `bench hub` (issue 34): the time to roll a revision through the prod
// members in four waves (canary by label, 10 %, 50 %, the rest), and how long after a wave's
// gates passed the next wave was released. The hub's RolloutController (in `groundwork hub run`)
// decides; the simulated members follow their releases. Both instants come from the bench's one
// watch of FleetMembers, so they share a clock: a wave's gates pass when the watch saw the last
// report of its members at the rollout's commit (bake time 0), the next wave is released when the
// watch saw the first of its members' `spec.release`.
import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../src/cluster/client.js';
import type { K8sObject } from '../src/core/object.js';
import { HUB_NAMESPACE, LABELS } from '../src/hub/hub-names.js';
import { getRollout, startRollout } from '../src/hub/rollout-commands.js';
import type { FleetRolloutObject, RolloutSpec } from '../src/hub/rollout-schema.js';
import type { SimulatedMember } from './hub-fleet.js';

const FINAL = new Set(['Completed', 'Succeeded', 'Halted', 'Aborted']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the watch carries of a FleetMember that the tracker reads. */
interface Seen {
  spec?: { release?: { revision?: string } };
  status?: { revision?: { applied?: string } };
}

/** The rollout of one environment, driven against the hub, its instants taken from the watch. */
export class RolloutTracker {
  private sha: string | undefined;
  private readonly releasedSeen = new Map<string, number>();
  /** Every report at the rollout's commit the watch saw, per member (when). */
  private readonly doneSeen = new Map<string, number[]>();

  constructor(
    private readonly members: ReadonlyMap<string, SimulatedMember>,
    /** A member's simulated fetch, apply and health wait after its release. */
    private readonly applyMs = 8000,
  ) {}

  /** Every FleetMember event of the bench's watch: releases handed to their member, reports timed. */
  onMember(obj: K8sObject, now: number): void {
    if (!this.sha) return;
    const name = obj.metadata.name;
    const seen = obj as Seen;
    const released = seen.spec?.release?.revision;
    if (released?.endsWith(`@sha1:${this.sha}`) && !this.releasedSeen.has(name)) {
      this.releasedSeen.set(name, now);
      this.members.get(name)?.release(released, this.applyMs);
    }
    if (seen.status?.revision?.applied?.endsWith(`@sha1:${this.sha}`))
      this.doneSeen.set(name, [...(this.doneSeen.get(name) ?? []), now]);
  }

  /** The last rollout of `run`, as it ended. */
  last: FleetRolloutObject | undefined;

  /**
   * Starts the rollout of a new commit to `environment` in four waves and waits for it to end
   * (or `timeoutMs`); the report line. `commit` names a real commit of the ref the real agents
   * follow (`ref`, their branch); without it, a made-up commit of the environment's ref.
   */
  async run(
    admin: KubeClient,
    environment: string,
    commit?: { readonly ref: string; readonly revision: string },
    timeoutMs = 900_000,
  ): Promise<string> {
    const { rollout, totalS } = await this.roll(
      admin,
      environment,
      [
        { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
        { name: 'ten', percent: 10 },
        { name: 'half', percent: 50 },
        { name: 'rest', percent: 100 },
      ],
      timeoutMs,
      commit,
    );
    this.last = rollout;
    return rolloutLine(rollout, totalS, this.releasedSeen, this.doneSeen);
  }

  /**
   * When the watch saw member `name`'s release of the last rollout, and its first report of that
   * commit applied after it (the bench's clock, ms); undefined where it did not.
   */
  instants(name: string): { released: number | undefined; applied: number | undefined } {
    const released = this.releasedSeen.get(name);
    const applied = (this.doneSeen.get(name) ?? []).find((t) => released !== undefined && t >= released);
    return { released, applied };
  }

  /**
   * A rollout whose canary wave is `member` alone, a member that fails its health: it must halt
   * before any member of the next wave is released. The report line says how it ended and how
   * many later members the watch saw released (0 is right).
   */
  async haltOnCanary(admin: KubeClient, environment: string, member: string): Promise<string> {
    const { rollout, totalS } = await this.roll(
      admin,
      environment,
      [
        { name: 'canary', selector: [{ key: LABELS.member, value: member }] },
        { name: 'rest', percent: 100 },
      ],
      120_000,
    );
    const later = (rollout.status?.members ?? []).filter((m) => m.wave > 0);
    const released = later.filter((m) => this.releasedSeen.has(m.name)).length;
    return `${rollout.status?.phase ?? 'no status'} ${totalS.toFixed(1)} s after it started (${rollout.status?.halted?.reason ?? 'no halt'}: canary ${member}); members of the later wave released: **${released} of ${later.length}**`;
  }

  private async roll(
    admin: KubeClient,
    environment: string,
    waves: RolloutSpec['waves'],
    timeoutMs: number,
    commit?: { readonly ref: string; readonly revision: string },
  ): Promise<{ rollout: FleetRolloutObject; totalS: number }> {
    this.releasedSeen.clear();
    this.doneSeen.clear();
    this.sha = commit?.revision ?? randomBytes(20).toString('hex');
    const spec: RolloutSpec = {
      environment,
      ref: commit?.ref ?? environment,
      revision: this.sha,
      waves,
      maxUnavailable: '20%',
      maxFailures: '10%',
      bakeSeconds: 0,
      progressDeadlineSeconds: 600,
    };
    const started = Date.now();
    const created = await startRollout(admin, HUB_NAMESPACE, spec);
    let r: FleetRolloutObject = created;
    while (!FINAL.has(r.status?.phase ?? '') && Date.now() - started < timeoutMs) {
      await sleep(500);
      r = await getRollout(admin, HUB_NAMESPACE, created.name);
    }
    return { rollout: r, totalS: (Date.now() - started) / 1000 };
  }
}

/**
 * The report line from the rollout's final status and the watch's instants: the phase and total
 * time, members by state, and per wave after the first, the next wave's release after the gates
 * of the one before passed (its members' last reports at the commit seen before that release). Pure.
 */
export function rolloutLine(
  r: FleetRolloutObject,
  totalS: number,
  releasedSeen: ReadonlyMap<string, number>,
  doneSeen: ReadonlyMap<string, readonly number[]>,
): string {
  const rows = r.status?.members ?? [];
  const waves = r.spec.waves.map((_, i) => rows.filter((m) => m.wave === i));
  const byState = new Map<string, number>();
  for (const m of rows) byState.set(m.state, (byState.get(m.state) ?? 0) + 1);
  const gaps: string[] = [];
  for (let w = 1; w < waves.length; w++) {
    const before = waves[w - 1]!.filter((m) => m.state === 'Succeeded' || m.state === 'Failed');
    const release = Math.min(...waves[w]!.map((m) => releasedSeen.get(m.name) ?? Number.POSITIVE_INFINITY));
    // The gate passed with the last report of the wave before that came ahead of the release (a
    // member may report at the commit more than once: drift healed, a pool update finished).
    const last = (name: string) => Math.max(...(doneSeen.get(name) ?? []).filter((t) => t <= release));
    const gate = Math.max(...before.map((m) => last(m.name)));
    gaps.push(
      `${r.spec.waves[w]!.name} ${Number.isFinite(gate) && Number.isFinite(release) ? `${release - gate} ms` : 'n/a'}`,
    );
  }
  return [
    `${r.status?.phase ?? 'no status'} after **${totalS.toFixed(1)} s** over ${rows.length} ${r.spec.environment} members`,
    `(waves ${waves.map((w, i) => `${r.spec.waves[i]!.name} ${w.length}`).join(', ')};`,
    `maxUnavailable ${r.spec.maxUnavailable}, maxFailures ${r.spec.maxFailures}, bake 0 s, apply 8 s ±50 %;`,
    `members ${[...byState].map(([s, n]) => `${s} ${n}`).join(', ')}${r.status?.halted ? `; halted: ${r.status.halted.reason}` : ''});`,
    `next wave released after the previous wave's gates passed: **${gaps.join(', ')}**`,
  ].join(' ');
}
