import { describe, expect, it } from 'vitest';
import { hubFleetRows, hubFleetText } from '../../src/hub/fleet-list.js';
import { ANNOTATIONS, LABELS } from '../../src/hub/hub-names.js';
import type { FleetMemberObject } from '../../src/hub/member-schema.js';

const sha = 'a'.repeat(40);
const member = (name: string, more: Partial<FleetMemberObject> = {}): FleetMemberObject => ({
  name,
  namespace: `member-${name}`,
  labels: { [LABELS.member]: name },
  annotations: {},
  generation: 1,
  spec: {},
  ...more,
});

describe('fleet status --hub rows', () => {
  it('shows each member by environment then name, with its report and the hub verdict', () => {
    const rows = hubFleetRows([
      member('z-1', {
        spec: { environment: 'prod' },
        labels: { [LABELS.reachability]: 'Reachable' },
        annotations: { [ANNOTATIONS.lastSeen]: '2026-11-28T03:00:00Z' },
        report: {
          sequence: 3,
          reportedAt: '2026-11-28T03:00:00Z',
          overlay: 'prod',
          revision: { applied: `main@sha1:${sha}` },
          ready: { status: 'False', reason: 'HealthCheckFailed' },
          drift: { count: 2 },
        },
      }),
      member('a-1', { spec: { environment: 'prod' }, labels: { [LABELS.reachability]: 'Unreachable' } }),
      member('b-1', { spec: { environment: 'dev' }, reportProblem: 'ready: Required' }),
    ]);
    expect(rows.map((r) => r.member)).toEqual(['b-1', 'a-1', 'z-1']);
    expect(rows[2]).toEqual({
      member: 'z-1',
      environment: 'prod',
      overlay: 'prod',
      revision: `main@sha1:${sha}`,
      ready: 'False',
      reason: 'HealthCheckFailed',
      drift: 2,
      reachability: 'Reachable',
      lastSeen: '2026-11-28T03:00:00Z',
    });
    expect(rows[1]).toMatchObject({ ready: 'Unknown', reachability: 'Unreachable' });
    const text = hubFleetText(rows).split('\n');
    expect(text[0]).toMatch(
      /^MEMBER\s+ENVIRONMENT\s+OVERLAY\s+REVISION\s+READY\s+DRIFT\s+REACHABLE\s+LAST SEEN$/,
    );
    expect(text[1]).toMatch(/^b-1\s+dev\s+-\s+-\s+report unreadable\s+-\s+Unknown\s+-$/);
    expect(text[3]).toMatch(
      /^z-1\s+prod\s+prod\s+\S+\s+False \(HealthCheckFailed\)\s+2\s+Reachable\s+2026-11-28T03:00:00Z$/,
    );
    expect(hubFleetText([])).toBe('no members registered with the hub\n');
  });
});
