import { tryParseChannel } from './channel.js';

/** A version's major and minor. */
interface MajorMinor {
  readonly major: number;
  readonly minor: number;
}

/**
 * The minors an update from `from` to `to` would skip, which makes it invalid: OpenShift updates
 * one minor at a time, except EUS-to-EUS (an even minor to the next even one, on an `eus-` channel,
 * with the worker pools paused: `controlPlaneOnly`), which passes through the odd minor itself.
 * Empty when the step is valid by this rule (same minor, the next one, EUS-to-EUS, or a downgrade,
 * which other rules judge). One rule for synth (`ClusterVersionTarget` against `openshiftVersion`)
 * and the PR preview (base target against head target).
 *
 * @example
 * skippedMinors({ major: 4, minor: 14 }, { major: 4, minor: 16 }, {}) // ['4.15']
 * skippedMinors({ major: 4, minor: 14 }, { major: 4, minor: 16 }, { channel: 'eus-4.16', controlPlaneOnly: true }) // []
 */
export function skippedMinors(
  from: MajorMinor,
  to: MajorMinor,
  opts: { channel?: string; controlPlaneOnly?: boolean },
): string[] {
  if (from.major !== to.major || to.minor - from.minor < 2) return [];
  if (isEusToEus(from, to, opts)) return [];
  return Array.from({ length: to.minor - from.minor - 1 }, (_, i) => `${from.major}.${from.minor + 1 + i}`);
}

/** An even minor to the next even minor on an eus- channel, control plane only. */
export function isEusToEus(
  from: MajorMinor,
  to: MajorMinor,
  opts: { channel?: string; controlPlaneOnly?: boolean },
): boolean {
  const channel = opts.channel ? tryParseChannel(opts.channel) : undefined;
  return (
    opts.controlPlaneOnly === true &&
    channel?.ok === true &&
    channel.channel.tier === 'eus' &&
    from.major === to.major &&
    from.minor % 2 === 0 &&
    to.minor === from.minor + 2
  );
}
