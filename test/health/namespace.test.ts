import { describe, expect, it } from 'vitest';
import { namespaceHealth } from '../../src/health/namespace.js';
import { obj } from './helpers.js';

const head = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n';

const terminating = `status:
  phase: Terminating
  conditions:
  - {type: NamespaceDeletionContentFailure, status: "False", reason: ContentDeleted}
  - {type: NamespaceFinalizersRemaining, status: "True", reason: SomeFinalizersRemain, message: 'example.com/guard in 1 resource instances'}`;

const cases = [
  { name: 'namespace-active', yaml: 'status: {phase: Active}', status: 'Healthy', reason: 'Active' },
  {
    name: 'namespace-terminating-held',
    yaml: terminating,
    status: 'Degraded',
    reason: 'NamespaceFinalizersRemaining',
  },
  {
    name: 'namespace-terminating',
    yaml: 'status: {phase: Terminating}',
    status: 'Progressing',
    reason: 'Terminating',
  },
  {
    name: 'namespace-no-status',
    yaml: 'spec: {finalizers: [kubernetes]}',
    status: 'Unknown',
    reason: 'NoStatus',
  },
  {
    name: 'namespace-unknown-phase',
    yaml: 'status: {phase: Archived}',
    status: 'Unknown',
    reason: 'UnknownPhase',
  },
] as const;

describe('namespaceHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = namespaceHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('names what a terminating namespace waits for, not the conditions that are fine', () => {
    expect(namespaceHealth(obj(head + terminating)).message).toBe(
      'the namespace is being deleted; NamespaceFinalizersRemaining: SomeFinalizersRemain: example.com/guard in 1 resource instances',
    );
  });
});
