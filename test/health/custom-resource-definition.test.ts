import { describe, expect, it } from 'vitest';
import { customResourceDefinitionHealth } from '../../src/health/custom-resource-definition.js';
import { obj } from './helpers.js';

const head = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
`;

const cases = [
  // kstatus: InProgress (Installing) until the API server writes conditions.
  {
    name: 'crd-no-status',
    yaml: 'spec: {group: example.com}',
    status: 'Progressing',
    reason: 'NotEstablished',
  },
  {
    name: 'crd-installing',
    yaml: 'status: {conditions: [{type: Established, status: "False", reason: Installing}]}',
    status: 'Progressing',
    reason: 'NotEstablished',
  },
  {
    // kstatus: Failed, an Established=False for any reason but Installing.
    name: 'crd-not-established',
    yaml: 'status: {conditions: [{type: Established, status: "False", reason: NotAccepted, message: not accepted}]}',
    status: 'Degraded',
    reason: 'NotEstablished',
  },
  {
    name: 'crd-names-not-accepted',
    yaml: `status:
  conditions:
  - {type: NamesAccepted, status: "False", reason: ListKindConflict, message: '"WidgetList" is already in use'}
  - {type: Established, status: "False", reason: NotAccepted}`,
    status: 'Degraded',
    reason: 'NamesNotAccepted',
  },
  {
    name: 'crd-established',
    yaml: `status:
  conditions:
  - {type: NamesAccepted, status: "True", reason: NoConflicts}
  - {type: Established, status: "True", reason: InitialNamesAccepted}`,
    status: 'Healthy',
    reason: 'Established',
  },
  {
    name: 'crd-not-established',
    yaml: `status:
  conditions:
  - {type: NamesAccepted, status: "True", reason: NoConflicts}
  - {type: Established, status: "False", reason: Installing, message: the initial names have not been accepted}`,
    status: 'Progressing',
    reason: 'NotEstablished',
  },
  {
    name: 'crd-no-established-condition',
    yaml: 'status: {acceptedNames: {kind: Widget}}',
    status: 'Progressing',
    reason: 'NotEstablished',
  },
] as const;

describe('customResourceDefinitionHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = customResourceDefinitionHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('carries the conflict from the API server', () => {
    expect(customResourceDefinitionHealth(obj(head + cases[3].yaml)).message).toBe(
      'ListKindConflict: "WidgetList" is already in use',
    );
  });
});
