import { healsDrift } from './cycle-decision.js';
import type { AgentMode } from './agent-state.js';

/**
 * What a `SynthFailed` cycle means for the cluster, said first in its message (and so in the
 * PlatformSync's Ready and Stalled conditions and `groundwork sync status`): nothing of `revision`
 * (the newest commit) is applied or pruned until a commit renders; the cluster stays at `lastGood`,
 * whose drift is healed in self-heal mode (the targeted drift checks go on) and only reported in
 * detect-only mode or while suspended. Pure.
 */
export function synthFailedNote(input: {
  revision: string;
  lastGood: string | undefined;
  mode: AgentMode;
  suspended: boolean;
}): string {
  const head = `newest commit ${input.revision} failed to render`;
  if (!input.lastGood) return `${head}; nothing is applied until a commit renders`;
  const drift = healsDrift({ mode: input.mode, suspended: input.suspended })
    ? 'drift from it is still healed'
    : `drift from it is reported, not healed (${input.suspended ? 'suspended' : input.mode})`;
  return `${head}: the cluster stays at ${input.lastGood} and ${drift}; nothing newer is applied or pruned until a commit renders`;
}

/** A failed cycle's status message: for `SynthFailed` (with the revision known), `synthFailedNote` first. */
export function statusMessage(
  failure: { reason: string; message: string },
  input: { revision: string | undefined; lastGood: string | undefined; mode: AgentMode; suspended: boolean },
): string {
  const { revision } = input;
  if (failure.reason !== 'SynthFailed' || !revision) return failure.message;
  return `${synthFailedNote({ ...input, revision })}. ${failure.message}`;
}
