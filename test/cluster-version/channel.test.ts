import { describe, expect, it } from 'vitest';
import {
  channelMinors,
  channelOffersVersion,
  parseChannel,
  releaseInChannel,
  tryParseChannel,
} from '../../src/cluster-version/channel.js';
import { InvalidChannelError } from '../../src/cluster-version/errors.js';
import { parseVersion } from '../../src/cluster-version/version.js';

const v = (version: string) => parseVersion(version)!;

describe('parseChannel', () => {
  it.each([
    ['stable-4.16', { name: 'stable-4.16', tier: 'stable', major: 4, minor: 16 }],
    ['fast-4.9', { name: 'fast-4.9', tier: 'fast', major: 4, minor: 9 }],
    ['candidate-4.13', { name: 'candidate-4.13', tier: 'candidate', major: 4, minor: 13 }],
    ['eus-4.10', { name: 'eus-4.10', tier: 'eus', major: 4, minor: 10 }],
  ])('parses %s', (name, expected) => {
    expect(parseChannel(name)).toEqual(expected);
  });

  it.each([
    ['eus-4.15', 'eus channels exist only for even minors; 4.15 is odd'],
    ['stable-4', 'not a channel name: want stable|fast|candidate|eus-<major>.<minor>'],
    ['Stable-4.16', 'not a channel name: want stable|fast|candidate|eus-<major>.<minor>'],
    ['stable-4.016', 'not a channel name: want stable|fast|candidate|eus-<major>.<minor>'],
    ['nightly-4.16', 'not a channel name: want stable|fast|candidate|eus-<major>.<minor>'],
  ])('refuses %s', (name, message) => {
    expect(tryParseChannel(name)).toEqual({ ok: false, message });
    expect(() => parseChannel(name)).toThrowError(InvalidChannelError);
  });

  it('throws a GroundworkError with code, subject and fix', () => {
    expect.assertions(2);
    try {
      parseChannel('eus-4.15');
    } catch (err) {
      expect(err).toMatchObject({ code: 'InvalidChannel', subject: 'channel "eus-4.15"' });
      expect(String(err)).toContain('fix: use stable-4.N, fast-4.N, candidate-4.N or eus-4.N (even N)');
    }
  });
});

describe('which minors a channel offers', () => {
  it('stable-4.16 offers 4.16 and the 4.15 releases that update into it; eus-4.16 also 4.14', () => {
    expect(channelMinors(parseChannel('stable-4.16'))).toEqual([15, 16]);
    expect(channelMinors(parseChannel('eus-4.16'))).toEqual([14, 15, 16]);
    const stable = parseChannel('stable-4.16');
    expect(channelOffersVersion(stable, v('4.16.3'))).toBe(true);
    expect(channelOffersVersion(stable, v('4.15.40'))).toBe(true);
    expect(channelOffersVersion(stable, v('4.17.0'))).toBe(false);
    expect(channelOffersVersion(stable, v('4.14.9'))).toBe(false);
    expect(channelOffersVersion(parseChannel('eus-4.16'), v('4.14.9'))).toBe(true);
    expect(channelOffersVersion(stable, v('5.16.0'))).toBe(false);
  });

  it('release metadata, when present, wins over the name', () => {
    const stable = parseChannel('stable-4.16');
    // graph-data stable-4.16 lists 4.14.z releases: a published channel list says yes.
    expect(releaseInChannel({ channels: ['stable-4.15', 'stable-4.16'] }, v('4.14.9'), stable)).toBe(true);
    // ...and a published list without the channel says no, whatever the name promises.
    expect(releaseInChannel({ channels: ['candidate-4.16'] }, v('4.16.0'), stable)).toBe(false);
    expect(releaseInChannel({ channels: [] }, v('4.16.0'), stable)).toBe(true);
  });
});
