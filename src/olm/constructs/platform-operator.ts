import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { z } from 'zod';
import { ANNOTATIONS } from '../../core/annotations.js';
import { Platform } from '../../render/synth/platform.js';
import { validateProps } from '../../render/synth/validation.js';
import { CatalogSource } from './catalog-source.js';
import { registerOperator } from './operator-groups.js';
import type { Approval, InstallMode, OperatorShape } from './operator-shape.js';
import { dnsLabel, dnsSubdomain } from './schemas.js';

export type { Approval, InstallMode } from './operator-shape.js';

/** A custom resource of the operator (e.g. an ArgoCD instance), applied once its CSV has Succeeded. */
export interface OperandSpec {
  readonly apiVersion: string;
  readonly kind: string;
  /** `namespace` defaults to the operator's namespace; set `''` for a cluster-scoped kind. */
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly [field: string]: unknown;
}

export interface SubscriptionConfig {
  readonly env?: readonly { name: string; value?: string; valueFrom?: unknown }[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly tolerations?: readonly {
    key?: string;
    operator?: string;
    value?: string;
    effect?: string;
    tolerationSeconds?: number;
  }[];
  readonly resources?: {
    readonly limits?: Readonly<Record<string, string>>;
    readonly requests?: Readonly<Record<string, string>>;
  };
}

export interface PlatformOperatorProps {
  /** Package name in the catalog, e.g. `openshift-gitops-operator`. */
  readonly package: string;
  /** Channel to follow, e.g. `latest` or `stable-v1`. */
  readonly channel: string;
  /** @default 'openshift-operators' */
  readonly namespace?: string;
  /** @default 'AllNamespaces' in openshift-operators, else 'OwnNamespace' */
  readonly installMode?: InstallMode;
  /** Namespaces watched with SingleNamespace (exactly one) or MultiNamespace (one or more). */
  readonly targetNamespaces?: readonly string[];
  /** @default { name: 'redhat-operators', namespace: 'openshift-marketplace' } */
  readonly catalog?: CatalogSource | { readonly name: string; readonly namespace?: string };
  /**
   * `Automatic` or `Manual`, exact casing: OLM treats anything but the exact string `Manual` as Automatic.
   * @default 'Manual' with a pin, else 'Automatic'
   */
  readonly approval?: Approval;
  /** Pin to this CSV (`startingCSV`); implies Manual approval, and Groundwork approves only the hops to it. */
  readonly pin?: string;
  /** @default the package name */
  readonly subscriptionName?: string;
  readonly config?: SubscriptionConfig;
  /** Create the Namespace object. @default true, except for openshift-operators and openshift-marketplace */
  readonly createNamespace?: boolean;
  /** The operator's own custom resources, applied after its CSV Succeeded. */
  readonly operands?: readonly OperandSpec[];
}

const APPROVAL_MESSAGE =
  'must be exactly "Automatic" or "Manual" (case-sensitive: OLM treats any other value as Automatic)';
const PREEXISTING = new Set(['openshift-operators', 'openshift-marketplace']);

const schema = z
  .object({
    package: dnsSubdomain,
    channel: z.string().min(1, 'a channel is required'),
    namespace: dnsLabel.optional(),
    installMode: z.enum(['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces']).optional(),
    targetNamespaces: z.array(dnsLabel).optional(),
    catalog: z.unknown().optional(),
    approval: z.enum(['Automatic', 'Manual'], { error: APPROVAL_MESSAGE }).optional(),
    pin: dnsSubdomain.optional(),
    subscriptionName: dnsSubdomain.optional(),
    config: z
      .object({
        env: z
          .array(
            z.object({
              name: z.string().min(1),
              value: z.string().optional(),
              valueFrom: z.unknown().optional(),
            }),
          )
          .optional(),
        nodeSelector: z.record(z.string(), z.string()).optional(),
        tolerations: z
          .array(
            z.object({
              key: z.string().optional(),
              operator: z.enum(['Exists', 'Equal']).optional(),
              value: z.string().optional(),
              effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
              tolerationSeconds: z.number().int().optional(),
            }),
          )
          .optional(),
        resources: z
          .object({
            limits: z.record(z.string(), z.string()).optional(),
            requests: z.record(z.string(), z.string()).optional(),
          })
          .optional(),
      })
      .strict()
      .optional(),
    createNamespace: z.boolean().optional(),
    operands: z
      .array(
        z
          .object({
            apiVersion: z.string().min(1),
            kind: z.string().min(1),
            metadata: z.object({ name: z.string().min(1), namespace: z.string().optional() }).loose(),
          })
          .loose(),
      )
      .optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.pin && p.approval === 'Automatic') {
      ctx.addIssue({
        code: 'custom',
        path: ['approval'],
        message: 'a pinned operator needs Manual approval: with Automatic, OLM upgrades past the pin',
      });
    }
    const mode = p.installMode;
    const targets = p.targetNamespaces ?? [];
    if (mode === 'SingleNamespace' && targets.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetNamespaces'],
        message: 'SingleNamespace needs exactly one target namespace',
      });
    }
    if (mode === 'MultiNamespace' && targets.length < 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetNamespaces'],
        message: 'MultiNamespace needs at least one target namespace',
      });
    }
    if ((mode === 'OwnNamespace' || mode === 'AllNamespaces' || mode === undefined) && targets.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetNamespaces'],
        message: `targetNamespaces is only used with SingleNamespace or MultiNamespace`,
      });
    }
  });

/**
 * An operator installed through OLM: its Namespace (unless pre-existing), a shared OperatorGroup
 * for its namespace (created once per namespace at finalize), a Subscription, and operands that
 * wait for its CSV.
 *
 * @example
 * new PlatformOperator(platform, 'gitops', {
 *   package: 'openshift-gitops-operator', channel: 'latest', namespace: 'openshift-gitops-operator',
 *   operands: [{ apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'platform', namespace: 'openshift-gitops' }, spec: {} }],
 * });
 */
export class PlatformOperator extends Construct implements OperatorShape {
  readonly packageName: string;
  readonly namespace: string;
  readonly subscriptionName: string;
  readonly installMode: InstallMode;
  readonly targetNamespaces: readonly string[];
  readonly approval: Approval;
  readonly pin: string | undefined;
  readonly createNamespace: boolean;
  /** False when props were invalid and nothing was emitted. */
  readonly valid: boolean;

  constructor(scope: Construct, id: string, props: PlatformOperatorProps) {
    super(scope, id);
    this.packageName = props.package;
    this.namespace = props.namespace ?? 'openshift-operators';
    this.subscriptionName = props.subscriptionName ?? props.package;
    this.installMode =
      props.installMode ?? (this.namespace === 'openshift-operators' ? 'AllNamespaces' : 'OwnNamespace');
    this.targetNamespaces = props.targetNamespaces ?? [];
    this.pin = props.pin;
    this.approval = props.approval ?? (props.pin ? 'Manual' : 'Automatic');
    this.createNamespace = props.createNamespace ?? !PREEXISTING.has(this.namespace);
    const p = validateProps(this, schema, props, {
      approval: 'write "Automatic" or "Manual" exactly',
      namespace: 'use lowercase letters, digits and "-" (a DNS label)',
    });
    this.valid = p !== undefined;
    if (!p) return;
    registerOperator(Platform.of(this), this);

    const catalog =
      props.catalog instanceof CatalogSource
        ? { name: props.catalog.catalogName, namespace: props.catalog.catalogNamespace }
        : {
            name: props.catalog?.name ?? 'redhat-operators',
            namespace: props.catalog?.namespace ?? 'openshift-marketplace',
          };
    new ApiObject(this, 'Subscription', {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: this.subscriptionName, namespace: this.namespace },
      spec: {
        name: p.package,
        channel: p.channel,
        source: catalog.name,
        sourceNamespace: catalog.namespace,
        installPlanApproval: this.approval,
        ...(p.pin ? { startingCSV: p.pin } : {}),
        ...(p.config ? { config: p.config } : {}),
      },
    });
    for (const operand of props.operands ?? []) this.addOperand(operand);
  }

  /** `<namespace>/<subscription>`: how operands and the engine refer to this operator. */
  get ref(): string {
    return `${this.namespace}/${this.subscriptionName}`;
  }

  /** Declares one of the operator's custom resources; it is applied after the operator's CSV Succeeded. */
  addOperand(spec: OperandSpec): ApiObject {
    const { apiVersion, kind, metadata, ...body } = spec;
    const { namespace: declared, ...rest } = metadata;
    const namespace = declared === undefined ? this.namespace : declared;
    return new ApiObject(this, `Operand-${kind}-${metadata.name}`, {
      apiVersion,
      kind,
      metadata: {
        ...rest,
        ...(namespace ? { namespace } : {}),
        annotations: { ...metadata.annotations, [ANNOTATIONS.operator]: this.ref },
      },
      ...body,
    });
  }
}
