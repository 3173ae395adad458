import { describe, expect, it } from 'vitest';
import { ANNOTATIONS, LABELS } from '../../src/hub/hub-names.js';
import {
  judgeReachability,
  reachabilityPatch,
  recordedReachability,
  watchingSince,
} from '../../src/hub/reachability.js';

const lease = 60_000;

describe('judgeReachability', () => {
  it('is Reachable within a lease duration of the last renewal seen', () => {
    expect(judgeReachability({ lastSeenMs: 1000, watchingSinceMs: 0, leaseMs: lease }, 1000 + lease)).toBe(
      'Reachable',
    );
  });

  it('is Unreachable once nothing was seen for a lease duration', () => {
    expect(judgeReachability({ lastSeenMs: 1000, watchingSinceMs: 0, leaseMs: lease }, 1001 + lease)).toBe(
      'Unreachable',
    );
    expect(judgeReachability({ watchingSinceMs: 0, leaseMs: lease }, lease + 1)).toBe('Unreachable');
  });

  it('gives every member a full lease duration after the watch (re)starts', () => {
    // Last seen long ago, but the watch restarted 10 s ago: not judged yet.
    expect(
      judgeReachability({ lastSeenMs: 0, watchingSinceMs: 500_000, leaseMs: lease }, 510_000),
    ).toBeUndefined();
    expect(judgeReachability({ watchingSinceMs: 500_000, leaseMs: lease }, 500_000 + lease)).toBeUndefined();
    expect(judgeReachability({ watchingSinceMs: 500_000, leaseMs: lease }, 500_001 + lease)).toBe(
      'Unreachable',
    );
  });
});

describe('reachabilityPatch', () => {
  const seen = { lastSeenMs: Date.parse('2026-11-28T03:00:00Z'), watchingSinceMs: 0, leaseMs: lease };
  const now = Date.parse('2026-11-28T03:02:00Z');

  it('writes nothing when the label already says so', () => {
    expect(
      reachabilityPatch({ [LABELS.reachability]: 'Unreachable' }, 'Unreachable', seen, now),
    ).toBeUndefined();
  });

  it('records the verdict, when it changed and when the member was last seen', () => {
    expect(reachabilityPatch({ [LABELS.reachability]: 'Reachable' }, 'Unreachable', seen, now)).toEqual({
      metadata: {
        labels: { [LABELS.reachability]: 'Unreachable' },
        annotations: {
          [ANNOTATIONS.reachabilitySince]: '2026-11-28T03:02:00Z',
          [ANNOTATIONS.lastSeen]: '2026-11-28T03:00:00Z',
        },
      },
    });
  });

  it('reads a missing or foreign label as Unknown', () => {
    expect(recordedReachability({})).toBe('Unknown');
    expect(recordedReachability({ [LABELS.reachability]: 'Maybe' })).toBe('Unknown');
    expect(recordedReachability({ [LABELS.reachability]: 'Reachable' })).toBe('Reachable');
  });
});

describe('watchingSince', () => {
  it('starts when the watch first streams, and stays through a resumed stream', () => {
    expect(watchingSince(undefined, true, 1000)).toBe(1000);
    // The server closes a watch every 5 minutes; resumed from its resourceVersion, it missed nothing.
    expect(watchingSince(1000, true, 301_000)).toBe(1000);
  });

  it('forgets it while the watch is down, and starts anew when it comes back', () => {
    expect(watchingSince(1000, false, 5000)).toBeUndefined();
    expect(watchingSince(undefined, true, 9000)).toBe(9000);
  });

  it('so a member with a long lease is judged Unreachable across stream restarts', () => {
    let since = watchingSince(undefined, true, 0);
    for (let t = 300_000; t <= 3_600_000; t += 300_000) since = watchingSince(since, true, t);
    expect(judgeReachability({ lastSeenMs: 0, watchingSinceMs: since!, leaseMs: 3_600_000 }, 3_600_001)).toBe(
      'Unreachable',
    );
  });
});
