import { describe, expect, it } from 'vitest';
import { parseRevision, revisionString, shortRevision } from '../../src/core/revision.js';
import { commitOf as fleetCommit } from '../../src/fleet/gates.js';
import { commitOf as statusCommit } from '../../src/report/notifications/commit-sha.js';

const HEX = '0123456789abcdef0123456789abcdef01234567';

describe('the revision string (frozen format <ref>@sha1:<hex>)', () => {
  it('is built in one place and read back the same', () => {
    for (const r of [
      { ref: 'main', commit: HEX, dirty: false },
      { ref: 'env/prod', commit: HEX, dirty: false },
      { ref: 'v1.2.0', commit: HEX, dirty: false },
      { ref: 'HEAD', commit: HEX, dirty: true },
      { ref: 'user@feature', commit: HEX, dirty: false },
    ])
      expect(parseRevision(revisionString(r))).toEqual(r);
    expect(revisionString({ ref: 'main', commit: HEX })).toBe(`main@sha1:${HEX}`);
  });

  it('refuses what is not one: a short or upper-case id, no ref, text after it', () => {
    for (const text of [
      'local',
      HEX,
      `@sha1:${HEX}`,
      `main@sha1:${HEX.slice(0, 39)}`,
      `main@sha1:${HEX.toUpperCase()}`,
      `main@sha1:${HEX}+dirty+dirty`,
      `main@sha1:${HEX}\n`,
      undefined,
    ])
      expect(parseRevision(text), String(text)).toBeUndefined();
  });

  it('reads short for people, and each caller takes the commit its contract names', () => {
    expect(shortRevision(`main@sha1:${HEX}+dirty`)).toBe('main@0123456789ab+dirty');
    expect(shortRevision('local')).toBe('local');
    // Commit statuses only on a fetched commit: never a dirty work tree or a bare id.
    expect(statusCommit(`main@sha1:${HEX}`)).toBe(HEX);
    expect(statusCommit(`main@sha1:${HEX}+dirty`)).toBeUndefined();
    expect(statusCommit(HEX)).toBeUndefined();
    // The fleet gates compare commits: a bare id or a dirty work tree names its commit.
    expect(fleetCommit(HEX)).toBe(HEX);
    expect(fleetCommit(`main@sha1:${HEX}+dirty`)).toBe(HEX);
    expect(fleetCommit('local')).toBeUndefined();
  });
});
