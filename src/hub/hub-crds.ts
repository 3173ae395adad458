import { z } from 'zod';
import type { K8sObject } from '../core/object.js';
import { ANNOTATIONS, HUB_GROUP, HUB_VERSION, LABELS } from './hub-names.js';
import { memberReportSchema, memberSpecSchema } from './member-schema.js';
import { registrationSpecSchema, registrationStatusSchema } from './registration-schema.js';
import { rolloutSpecSchema, rolloutStatusSchema } from './rollout-schema.js';

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as an OpenAPI v3 structural schema for a CRD: zod's own conversion (OpenAPI 3.0
 * target, input side), with what Kubernetes does not take removed (`$schema`). The bounds
 * (maxLength, maxItems, minimum/maximum, enum, pattern) come through as they are. Pure.
 */
export function openApiOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
  }) as JsonSchema;
  return rest;
}

interface CrdInput {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly spec: z.ZodType;
  readonly status: z.ZodType;
  readonly columns: readonly { name: string; type: string; jsonPath: string; priority?: number }[];
  readonly description: string;
}

function crd(input: CrdInput): K8sObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${input.plural}.${HUB_GROUP}`,
      labels: { 'app.kubernetes.io/part-of': 'groundwork-hub' },
    },
    spec: {
      group: HUB_GROUP,
      scope: 'Namespaced',
      names: {
        kind: input.kind,
        listKind: `${input.kind}List`,
        plural: input.plural,
        singular: input.singular,
        shortNames: [...input.shortNames],
        categories: ['groundwork'],
      },
      versions: [
        {
          name: HUB_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...input.columns,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: input.description,
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: openApiOf(input.spec),
                status: openApiOf(input.status),
              },
            },
          },
        },
      ],
    },
  };
}

const labelPath = (key: string) => `.metadata.labels.${key.replace(/\./g, '\\.')}`;
const annotationPath = (key: string) => `.metadata.annotations.${key.replace(/\./g, '\\.')}`;

/**
 * The hub's CustomResourceDefinitions: FleetMember, MemberRegistration and FleetRollout, their schemas generated
 * from the zod schemas every reader and writer uses, so the apiserver enforces the same bounds
 * (docs/hub.md "The API"). Pure; `groundwork hub up` and `hub bootstrap` install or print them.
 */
export function hubCrds(): K8sObject[] {
  return [
    crd({
      kind: 'FleetMember',
      plural: 'fleetmembers',
      singular: 'fleetmember',
      shortNames: ['fm'],
      spec: memberSpecSchema,
      status: memberReportSchema,
      description:
        "A cluster of the fleet, in its own namespace member-<name>. The hub writes spec (environment, release) and metadata (labels, reachability); the member's agent writes only status, its compact report.",
      columns: [
        { name: 'Environment', type: 'string', jsonPath: '.spec.environment' },
        { name: 'Reachability', type: 'string', jsonPath: labelPath(LABELS.reachability) },
        { name: 'Ready', type: 'string', jsonPath: '.status.ready.status' },
        { name: 'Health', type: 'string', jsonPath: '.status.health.status' },
        { name: 'Revision', type: 'string', jsonPath: '.status.revision.applied' },
        { name: 'Released', type: 'string', jsonPath: '.spec.release.revision', priority: 1 },
        // Read by `fleet status --hub` as a Table (fleet-table.ts), shown by `kubectl get -o wide`.
        { name: 'Overlay', type: 'string', jsonPath: '.status.overlay', priority: 1 },
        { name: 'Reason', type: 'string', jsonPath: '.status.ready.reason', priority: 1 },
        { name: 'Drift', type: 'integer', jsonPath: '.status.drift.count', priority: 1 },
        { name: 'LastSeen', type: 'string', jsonPath: annotationPath(ANNOTATIONS.lastSeen), priority: 1 },
      ],
    }),
    crd({
      kind: 'MemberRegistration',
      plural: 'memberregistrations',
      singular: 'memberregistration',
      shortNames: ['mreg'],
      spec: registrationSpecSchema,
      status: registrationStatusSchema,
      description:
        'A request to join the fleet: a member name, a one-time registration token and the public key the credentials are encrypted to. Created by an agent with a bootstrap kubeconfig, answered by the hub controller in status.',
      columns: [
        { name: 'Member', type: 'string', jsonPath: '.spec.member' },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Reason', type: 'string', jsonPath: '.status.reason' },
      ],
    }),
    crd({
      kind: 'FleetRollout',
      plural: 'fleetrollouts',
      singular: 'fleetrollout',
      shortNames: ['frol'],
      spec: rolloutSpecSchema,
      status: rolloutStatusSchema,
      description:
        "One revision of one environment released to its members wave by wave, in the hub's namespace. People write spec (groundwork fleet rollout start, pause, resume, abort); the hub controller writes status and the members' spec.release.",
      columns: [
        { name: 'Environment', type: 'string', jsonPath: '.spec.environment' },
        { name: 'Revision', type: 'string', jsonPath: '.spec.revision' },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Wave', type: 'integer', jsonPath: '.status.currentWave' },
      ],
    }),
  ];
}
