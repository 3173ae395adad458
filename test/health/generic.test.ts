import { describe, expect, it } from 'vitest';
import { genericHealth } from '../../src/health/generic.js';
import { obj } from './helpers.js';

const widget = (status: string) =>
  obj(`apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: shop, generation: 5}
spec: {size: 3}
${status}`);

const conditions = (...list: string[]) =>
  `status:\n  observedGeneration: 5\n  conditions:\n${list.map((c) => `  - ${c}`).join('\n')}`;

const cases = [
  { name: 'configmap-no-status', yaml: 'data: {a: b}', status: 'Healthy', reason: 'NoStatus' },
  { name: 'widget-empty-status', yaml: 'status: {}', status: 'Healthy', reason: 'NoStatus' },
  {
    name: 'widget-generation-outdated',
    yaml: 'status: {observedGeneration: 4}',
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'widget-stalled',
    yaml: conditions(
      '{type: Stalled, status: "True", reason: InvalidSpec}',
      '{type: Reconciling, status: "True"}',
    ),
    status: 'Degraded',
    reason: 'Stalled',
  },
  {
    name: 'job-failed',
    yaml: conditions('{type: Failed, status: "True", reason: BackoffLimitExceeded}'),
    status: 'Degraded',
    reason: 'Failed',
  },
  {
    name: 'widget-reconciling',
    yaml: conditions('{type: Reconciling, status: "True"}', '{type: Ready, status: "False"}'),
    status: 'Progressing',
    reason: 'Reconciling',
  },
  {
    name: 'widget-not-ready',
    yaml: conditions('{type: Ready, status: "False", reason: Waiting}'),
    status: 'Progressing',
    reason: 'NotReady',
  },
  {
    name: 'apiservice-not-available',
    yaml: conditions(
      '{type: Ready, status: "True"}',
      '{type: Available, status: "False", reason: MissingEndpoints}',
    ),
    status: 'Progressing',
    reason: 'NotAvailable',
  },
  {
    name: 'widget-ready',
    yaml: conditions('{type: Ready, status: "True", reason: Succeeded}'),
    status: 'Healthy',
    reason: 'Ready',
  },
  {
    name: 'apiservice-available',
    yaml: conditions('{type: Available, status: "True"}'),
    status: 'Healthy',
    reason: 'Available',
  },
  {
    name: 'run-succeeded',
    yaml: conditions('{type: Succeeded, status: "True"}'),
    status: 'Healthy',
    reason: 'Succeeded',
  },
  {
    name: 'widget-no-conditions',
    yaml: 'status: {observedGeneration: 5, phase: Whatever}',
    status: 'Healthy',
    reason: 'NoConditions',
  },
] as const;

describe('genericHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = genericHealth(widget(yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('carries the condition reason and message, or names the condition', () => {
    expect(
      genericHealth(
        widget(conditions('{type: Stalled, status: "True", reason: Bad, message: " spec.size too big "}')),
      ).message,
    ).toBe('Bad: spec.size too big');
    expect(genericHealth(widget(conditions('{type: Ready, status: "False"}'))).message).toBe('Ready=False');
  });
});
