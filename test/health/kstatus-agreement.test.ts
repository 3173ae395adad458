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
type KStatus = 'Current' | 'InProgress' | 'Failed';
interface Case {
  test: string;
  case: string;
  expected: KStatus;
  createdNow?: boolean;
  object: string;
}

/** kstatus' status for one of our states: Suspended is held on purpose, so nothing waits on it. */
const KSTATUS_OF: Record<HealthStatus, KStatus> = {
  Healthy: 'Current',
  Suspended: 'Current',
  Progressing: 'InProgress',
  Unknown: 'InProgress',
  Missing: 'InProgress',
  Degraded: 'Failed',
};

/** Deliberate differences: case → what Groundwork says (the reasons are in docs/health.md). */
const DIFFERENCES: Record<string, KStatus> = {
  // A failed pod will not run again: Degraded, so a report names it (kstatus: Current, "completed").
  podCompletedFailed: 'Failed',
  // No clock in a per-object check, and the scheduler keeps retrying: Progressing until the
  // caller's timeout (kstatus: Failed once the pod is 15 s old).
  podUnschedulable: 'InProgress',
};

const cases = parse(readFileSync(fixturePath('kstatus/status-compute-cases.yaml'), 'utf8')) as Case[];

/** The object as Go's YAML reader sees it: a repeated key keeps its last value. */
function objectOf(c: Case): K8sObject {
  const text = c.createdNow ? c.object.replace('NOW', new Date().toISOString()) : c.object;
  return parse(text, { uniqueKeys: false }) as K8sObject;
}

describe('kstatus status_compute_test.go cases', () => {
  it('holds every case of the upstream table', () => {
    expect(cases).toHaveLength(53);
  });

  it.each(cases.map((c) => [c.case, c] as const))('%s', (name, c) => {
    const v = assessHealth(objectOf(c));
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
