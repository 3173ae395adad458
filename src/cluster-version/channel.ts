import { InvalidChannelError } from './errors.js';
import type { SemVer } from './version.js';

/** The four channel tiers OpenShift publishes, least to most conservative, then EUS. */
export type ChannelTier = 'candidate' | 'fast' | 'stable' | 'eus';

/** A parsed channel name such as `stable-4.16`: the tier and the minor it leads to. */
export interface Channel {
  readonly name: string;
  readonly tier: ChannelTier;
  readonly major: number;
  readonly minor: number;
}

const CHANNEL = /^(candidate|fast|stable|eus)-(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * Parses `stable-4.N`, `fast-4.N`, `candidate-4.N` or `eus-4.N`. EUS channels exist only for
 * even minors (4.8, 4.10, ...). Returns the refusal message instead of throwing.
 */
export function tryParseChannel(
  name: string,
): { ok: true; channel: Channel } | { ok: false; message: string } {
  const match = CHANNEL.exec(name);
  if (!match) {
    return { ok: false, message: 'not a channel name: want stable|fast|candidate|eus-<major>.<minor>' };
  }
  const tier = match[1] as ChannelTier;
  const major = Number(match[2]);
  const minor = Number(match[3]);
  if (tier === 'eus' && minor % 2 !== 0) {
    return { ok: false, message: `eus channels exist only for even minors; ${major}.${minor} is odd` };
  }
  return { ok: true, channel: { name, tier, major, minor } };
}

/**
 * Parses a channel name; throws `InvalidChannel` otherwise.
 *
 * @example
 * parseChannel('eus-4.16') // { name: 'eus-4.16', tier: 'eus', major: 4, minor: 16 }
 */
export function parseChannel(name: string): Channel {
  const result = tryParseChannel(name);
  if (!result.ok) throw new InvalidChannelError(name, result.message);
  return result.channel;
}

/**
 * The minors a channel offers according to its name alone: `stable-4.16` carries 4.16 releases and
 * the 4.15 releases that update into 4.16 (so a 4.15 cluster can take 4.15.z patches while on it);
 * `eus-4.16` also carries 4.14, for EUS-to-EUS updates. Published channel data can hold more (the
 * graph-data `stable-4.16` also lists 4.14.z), so release metadata, when known, wins over this rule.
 */
export function channelMinors(channel: Channel): number[] {
  const span = channel.tier === 'eus' ? 2 : 1;
  const minors: number[] = [];
  for (let m = Math.max(0, channel.minor - span); m <= channel.minor; m++) minors.push(m);
  return minors;
}

/** True when the channel's name offers the version's minor (see `channelMinors`). */
export function channelOffersVersion(channel: Channel, version: SemVer): boolean {
  return version.major === channel.major && channelMinors(channel).includes(version.minor);
}

/**
 * Whether a release is in a channel: by its published channel list when it has one (release
 * metadata `io.openshift.upgrades.graph.release.channels` or a ClusterVersion's `channels`),
 * otherwise by the channel name's rule.
 */
export function releaseInChannel(
  release: { readonly channels: readonly string[] },
  version: SemVer,
  channel: Channel,
): boolean {
  return release.channels.length > 0
    ? release.channels.includes(channel.name)
    : channelOffersVersion(channel, version);
}
