import { parseRevision, revisionString } from '../core/revision.js';
import { LABELS, memberNamespace } from './hub-names.js';
import type { FleetMemberObject, MemberRelease } from './member-schema.js';
import { memberHold, memberOutcome } from './rollout-member.js';
import {
  ROLLOUT_BOUNDS,
  printable,
  type FleetRolloutObject,
  type MemberRolloutStatus,
  type RolloutPhase,
  type RolloutStatus,
  type WaveStatus,
} from './rollout-schema.js';
import { assignWaves, byCode, countOf } from './rollout-waves.js';
import { rfc3339 } from './schema-parts.js';

/** What the controller does now for one rollout: releases to write, the new status, when to look again. */
export interface RolloutDecision {
  /** FleetMember.spec.release to write, one per member. */
  readonly releases: readonly { readonly member: string; readonly release: MemberRelease }[];
  /** Members a gate holds back now, with why. */
  readonly held: readonly { readonly member: string; readonly reason: string; readonly message: string }[];
  /** Set when this decision halts the rollout (not when it was halted before). */
  readonly halt?: { readonly reason: string; readonly message: string };
  readonly status: RolloutStatus;
  /** When to decide again if nothing changes (a bake ends, a deadline passes, a window opens). */
  readonly nextCheckAt?: number;
}

export interface DecideOptions {
  /** A newer rollout of the same environment: this one releases nothing more. */
  readonly supersededBy?: string;
}

const at = (t: string | undefined) => (t === undefined ? NaN : Date.parse(t));
const environmentOf = (m: FleetMemberObject) => m.spec.environment ?? m.labels[LABELS.environment];

interface Row {
  name: string;
  wave: number;
  state: MemberRolloutStatus['state'];
  reason?: string;
  message?: string;
  releasedAt?: number;
  succeededAt?: number;
}

/**
 * Decides what `rollout` does at `now` over the hub's `members` (all of them: those of other
 * environments are ignored). Pure: no clock, no I/O.
 *
 * - Members are assigned to waves once (`assignWaves`; the assignment is kept in the status), a
 *   member that registers later joins the last wave when it matches it.
 * - A member is released when its wave has started, no gate holds it (`memberHold`) and fewer
 *   than `maxUnavailable` members are in flight (released, not yet succeeded). Wave N+1 starts
 *   `bakeSeconds` after the hub saw every member of wave N succeed; in waves after the first, a
 *   member held as Unreachable does not hold the wave (it gets the release once it is back).
 * - A released member fails when its report says so at the commit (`memberOutcome`) or it has not
 *   succeeded within `progressDeadlineSeconds`; a failure is recorded for good. Any failure in the
 *   first wave (the canary), or more failures than `maxFailures`, halts the rollout: from then on
 *   nothing is released, and a halt is never lifted (start a new rollout of a fixed commit).
 * - Paused, aborted or superseded: nothing is released; states are still observed.
 *
 * It never takes a release back: what was released stays released.
 */
export function decideRollout(
  rollout: FleetRolloutObject,
  members: readonly FleetMemberObject[],
  now: number,
  opts: DecideOptions = {},
): RolloutDecision {
  const { spec } = rollout;
  const sha = spec.revision;
  const mine = members.filter(
    (m) => environmentOf(m) === spec.environment && m.namespace === memberNamespace(m.name),
  );
  const previous = new Map((rollout.status?.members ?? []).map((m) => [m.name, m]));
  const computed = assignWaves(spec.waves, mine);
  const last = spec.waves.length - 1;
  const waveOf = (m: FleetMemberObject): number => {
    const known = previous.get(m.name);
    if (known) return known.state === 'Held' && known.reason === 'NotInAnyWave' ? -1 : known.wave;
    if (previous.size === 0) return computed.get(m.name) ?? -1;
    // A member that joined mid-rollout: the last wave, when it would take it.
    const alone = assignWaves([spec.waves[last]!], [m]);
    return alone.get(m.name) === 0 ? last : -1;
  };

  // Observe every member: released by this rollout, and where it stands at the commit.
  const rows: Row[] = [];
  const byName = new Map<string, FleetMemberObject>();
  for (const m of mine) {
    byName.set(m.name, m);
    const wave = waveOf(m);
    const prev = previous.get(m.name);
    const release = m.spec.release;
    const released = release?.rollout === rollout.name && parseRevision(release.revision)?.commit === sha;
    if (!released) {
      rows.push({ name: m.name, wave, state: 'Pending' });
      continue;
    }
    const releasedAt = at(release.releasedAt);
    const row: Row = { name: m.name, wave, state: 'Released', releasedAt };
    const outcome = memberOutcome(m.report, sha);
    if (prev?.state === 'Failed') {
      Object.assign(row, { state: 'Failed', reason: prev.reason, message: prev.message });
    } else if (outcome.kind === 'failed') {
      Object.assign(row, { state: 'Failed', reason: outcome.reason, message: outcome.message });
    } else if (outcome.kind === 'succeeded' || prev?.state === 'Succeeded') {
      const since = at(prev?.succeededAt);
      Object.assign(row, { state: 'Succeeded', succeededAt: Number.isNaN(since) ? now : since });
    } else if (now - releasedAt > spec.progressDeadlineSeconds * 1000) {
      Object.assign(row, {
        state: 'Failed',
        reason: 'ProgressDeadlineExceeded',
        message: `not succeeded ${spec.progressDeadlineSeconds}s after its release (${outcome.reason}: ${outcome.message})`,
      });
    } else Object.assign(row, { reason: outcome.reason, message: outcome.message });
    rows.push(row);
  }
  for (const prev of previous.values())
    if (!byName.has(prev.name)) rows.push({ name: prev.name, wave: prev.wave, state: 'Gone' });

  // Halt: a failed canary, or more failures than allowed. Sticky.
  const inRollout = rows.filter((r) => r.wave >= 0 && r.state !== 'Gone');
  const failed = rows.filter((r) => r.state === 'Failed');
  const maxFailures = countOf(spec.maxFailures, inRollout.length, { min: 0 });
  let halted = rollout.status?.halted;
  let halt: RolloutDecision['halt'];
  if (!halted) {
    const canary = failed.filter((r) => r.wave === 0);
    if (rows.length > ROLLOUT_BOUNDS.members)
      halt = {
        reason: 'TooManyMembers',
        message: `${rows.length} members: a rollout tracks at most ${ROLLOUT_BOUNDS.members} in its status`,
      };
    else if (canary.length > 0)
      halt = {
        reason: 'CanaryFailed',
        message: `the first wave (${spec.waves[0]!.name}) failed on ${canary.map((r) => `${r.name} (${r.reason})`).join(', ')}`,
      };
    else if (failed.length > maxFailures)
      halt = {
        reason: 'MaxFailuresExceeded',
        message: `${failed.length} member(s) failed, more than maxFailures ${spec.maxFailures} (${maxFailures}): ${failed.map((r) => `${r.name} (${r.reason})`).join(', ')}`,
      };
    if (halt) halted = { ...halt, message: printable(halt.message).slice(0, 512), at: rfc3339(now) };
  }

  // Waves: which have started (the previous one completed and baked).
  const previousWaves = rollout.status?.waves ?? [];
  const completedAt: (number | undefined)[] = [];
  /** When wave `i` starts: at once for the first, `bakeSeconds` after the previous completed; NaN: not yet known. */
  const startedAt = (i: number) =>
    i === 0 ? 0 : completedAt[i - 1] === undefined ? NaN : completedAt[i - 1]! + spec.bakeSeconds * 1000;
  let current = 0;
  spec.waves.forEach((_, i) => {
    const recorded = at(previousWaves[i]?.completedAt);
    if (!Number.isNaN(recorded)) {
      completedAt[i] = recorded;
      return;
    }
    const wave = rows.filter((r) => r.wave === i && r.state !== 'Gone');
    // Failed counts as done: within maxFailures (else the rollout halted), a failure does not
    // hold the next wave; it stays Failed in the status.
    const done = wave.every(
      (r) =>
        r.state === 'Succeeded' ||
        r.state === 'Failed' ||
        (i > 0 && memberHold(byName.get(r.name)!, spec, now)?.reason === 'Unreachable'),
    );
    completedAt[i] = startedAt(i) <= now && done && !halted ? now : undefined;
  });
  spec.waves.forEach((_, i) => {
    if (startedAt(i) <= now) current = i;
  });

  // Releases, in wave order, within maxUnavailable.
  const stopped = spec.aborted
    ? 'Aborted'
    : opts.supersededBy
      ? 'Superseded'
      : halted
        ? 'Halted'
        : spec.paused
          ? 'Paused'
          : undefined;
  const maxUnavailable = countOf(spec.maxUnavailable, inRollout.length, { min: 1 });
  let capacity = maxUnavailable - rows.filter((r) => r.state === 'Released').length;
  const releases: { member: string; release: MemberRelease }[] = [];
  const held: { member: string; reason: string; message: string }[] = [];
  const wakeups: number[] = [];
  const pending = rows
    .filter((r) => r.state === 'Pending')
    .sort((a, b) => a.wave - b.wave || byCode(a.name, b.name));
  for (const r of pending) {
    if (r.wave < 0) {
      Object.assign(r, { state: 'Held', reason: 'NotInAnyWave', message: 'no wave selects it' });
    } else if (stopped) {
      Object.assign(r, { reason: stopped, message: `the rollout is ${stopped.toLowerCase()}` });
    } else if (r.wave > current) {
      Object.assign(r, {
        reason: 'WaveNotStarted',
        message: `wave ${spec.waves[r.wave]!.name} has not started`,
      });
    } else {
      const hold = memberHold(byName.get(r.name)!, spec, now);
      if (hold) {
        Object.assign(r, { state: 'Held', reason: hold.reason, message: hold.message });
        if (hold.until !== undefined) wakeups.push(hold.until);
      } else if (capacity > 0) {
        capacity--;
        Object.assign(r, { state: 'Released', releasedAt: now, reason: 'Released', message: 'released now' });
        releases.push({
          member: r.name,
          release: {
            revision: revisionString({ ref: spec.ref, commit: sha }),
            rollout: rollout.name,
            wave: r.wave,
            releasedAt: rfc3339(now),
          },
        });
      } else {
        Object.assign(r, {
          reason: 'MaxUnavailable',
          message: `${maxUnavailable} member(s) in flight (maxUnavailable ${spec.maxUnavailable})`,
        });
      }
    }
    if (r.state === 'Held') held.push({ member: r.name, reason: r.reason!, message: r.message! });
  }

  // When to look again without a change.
  for (const r of rows)
    if (r.state === 'Released' && r.releasedAt !== undefined)
      wakeups.push(r.releasedAt + spec.progressDeadlineSeconds * 1000 + 1000);
  if (current + 1 < spec.waves.length && !Number.isNaN(startedAt(current + 1)))
    wakeups.push(startedAt(current + 1));
  const future = wakeups.filter((t) => t > now && Number.isFinite(t));
  const nextCheckAt =
    stopped && stopped !== 'Paused' ? undefined : future.length ? Math.min(...future) : undefined;

  const waves: WaveStatus[] = spec.waves.map((w, i) => {
    const of = rows.filter((r) => r.wave === i && r.state !== 'Gone');
    const done = completedAt[i];
    return {
      name: w.name,
      state:
        i > current
          ? 'Pending'
          : done === undefined
            ? 'Progressing'
            : i + 1 < spec.waves.length && startedAt(i + 1) > now
              ? 'Baking'
              : 'Completed',
      members: of.length,
      succeeded: of.filter((r) => r.state === 'Succeeded').length,
      failed: of.filter((r) => r.state === 'Failed').length,
      held: of.filter((r) => r.state === 'Held').length,
      ...(done !== undefined ? { completedAt: rfc3339(done) } : {}),
    };
  });
  const allDone = completedAt.every((t) => t !== undefined);
  const allSucceeded = inRollout.length > 0 && inRollout.every((r) => r.state === 'Succeeded');
  const phase: RolloutPhase =
    stopped === 'Aborted' || stopped === 'Superseded'
      ? 'Aborted'
      : stopped === 'Halted'
        ? 'Halted'
        : allDone && allSucceeded
          ? 'Succeeded'
          : stopped === 'Paused'
            ? 'Paused'
            : allDone
              ? 'Completed'
              : 'Progressing';
  const notDone = rows.filter((r) => r.state === 'Held' || r.state === 'Pending');
  const message =
    phase === 'Halted'
      ? halted!.message
      : stopped === 'Superseded'
        ? `superseded by rollout ${opts.supersededBy}`
        : phase === 'Completed'
          ? `every wave completed; not succeeded: ${notDone.map((r) => `${r.name} (${r.reason})`).join(', ')}`
          : undefined;
  const status: RolloutStatus = {
    phase,
    ...(message ? { message: message.slice(0, 512) } : {}),
    currentWave: current,
    ...(halted ? { halted } : {}),
    waves,
    members: rows
      .sort((a, b) => a.wave - b.wave || byCode(a.name, b.name))
      .slice(0, ROLLOUT_BOUNDS.members)
      .map(memberStatus),
    ...(nextCheckAt !== undefined ? { nextCheckAt: rfc3339(nextCheckAt) } : {}),
    observedGeneration: rollout.generation,
    updatedAt: rfc3339(now),
  };
  return {
    releases,
    held,
    ...(halt ? { halt } : {}),
    status,
    ...(nextCheckAt !== undefined ? { nextCheckAt } : {}),
  };
}

function memberStatus(r: Row): MemberRolloutStatus {
  return {
    name: r.name,
    wave: Math.max(0, r.wave),
    state: r.state,
    ...(r.reason ? { reason: r.reason.slice(0, 64) } : {}),
    // Messages only where someone must look (a status of 5,000 members stays well under etcd's 1.5 MB).
    ...(r.message && (r.state === 'Held' || r.state === 'Failed')
      ? { message: printable(r.message).slice(0, 160) }
      : {}),
    ...(r.releasedAt !== undefined && !Number.isNaN(r.releasedAt)
      ? { releasedAt: rfc3339(r.releasedAt) }
      : {}),
    ...(r.succeededAt !== undefined ? { succeededAt: rfc3339(r.succeededAt) } : {}),
  };
}
