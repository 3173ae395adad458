import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { K8sObject } from '../../src/core/object.js';
import { assessHealth, type HealthStatus } from '../../src/health/index.js';
import { fixturePath } from '../harness/fixtures.js';

/**
 * kstatus' own test table (cli-utils `pkg/kstatus/status/status_compute_test.go`, every case, see
 * test/fixtures/PROVENANCE.md) run through `assessHealth`. Each case must agree, or be listed in
 * `DIFFERENCES` with the status we give instead (documented in docs/health.md): a new disagreement,
 * or a listed one that no longer holds, fails.
 */
type KStatus = 'Current' | 'InProgress' | 'Failed' | 'Unknown' | 'NotFound';
interface Case {
  test: string;
  case: string;
  expected: KStatus;
  createdNow?: boolean;
  object: string;
}

/**
 * kstatus' status for one of our states: Suspended is held on purpose, so nothing waits on it.
 * Unknown is kstatus' Unknown (it cannot judge), never InProgress: an object kstatus judges
 * InProgress must be Progressing here too.
 */
const KSTATUS_OF: Record<HealthStatus, KStatus> = {
  Healthy: 'Current',
  Suspended: 'Current',
  Progressing: 'InProgress',
  Unknown: 'Unknown',
  Missing: 'NotFound',
  Degraded: 'Failed',
};

/** Deliberate differences: case → what Groundwork says (the reasons are in docs/health.md). */
const DIFFERENCES: Record<string, KStatus> = {
  // A failed pod will not run again: Degraded, so a report names it (kstatus: Current, "completed").
  podCompletedFailed: 'Failed',
};

const cases = parse(readFileSync(fixturePath('kstatus/status-compute-cases.yaml'), 'utf8')) as Case[];

/** The time the table is judged at; kstatus' `time.Now()` case is created 1 s before it. */
const NOW = new Date('2025-10-21T15:06:41Z');

/** The object as Go's YAML reader sees it: a repeated key keeps its last value. */
function objectOf(c: Case): K8sObject {
  const created = new Date(NOW.getTime() - 1000).toISOString();
  const text = c.createdNow ? c.object.replace('NOW', created) : c.object;
  return parse(text, { uniqueKeys: false }) as K8sObject;
}

describe('kstatus status_compute_test.go cases', () => {
  it('holds every case of the upstream table', () => {
    expect(cases).toHaveLength(53);
  });

  it.each(cases.map((c) => [c.case, c] as const))('%s', (name, c) => {
    const v = assessHealth(objectOf(c), { now: NOW });
    expect({ case: name, ours: KSTATUS_OF[v.status] }).toEqual({
      case: name,
      ours: DIFFERENCES[name] ?? c.expected,
    });
  });

  it('lists no difference for a case that does not exist', () => {
    const names = new Set(cases.map((c) => c.case));
    expect(Object.keys(DIFFERENCES).filter((n) => !names.has(n))).toEqual([]);
  });
});
