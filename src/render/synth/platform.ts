import { ApiObject, Chart } from 'cdk8s';
import type { Construct, IConstruct } from 'constructs';
import { z } from 'zod';
import { ANNOTATIONS } from '../../core/annotations.js';
import { validateObjectNames } from './object-names.js';
import { Validation, validateProps } from './validation.js';

const PLATFORM = Symbol.for('groundwork.Platform');

/** A kind-wide ignore rule, expanded into each matching object's `groundwork.io/ignore-differences`. */
export interface IgnoreRule {
  /** API group, `''` for core. @default any group */
  readonly group?: string;
  readonly kind: string;
  /** Only objects with this name. @default all */
  readonly name?: string;
  /** Only objects in this namespace. @default all */
  readonly namespace?: string;
  /** JSON pointers, e.g. `/spec/replicas`. */
  readonly pointers: readonly string[];
}

export interface PlatformProps {
  /**
   * The OpenShift version the platform targets (`4.16` or `4.16.3`); chooses the Ignition
   * version of MachineConfigs. Usually the ClusterVersion target's version.
   */
  readonly openshiftVersion: string;
}

const propsSchema = z.object({
  openshiftVersion: z.string().regex(/^4\.\d+(\.\d+)?$/, 'must look like 4.16 or 4.16.3'),
});

/**
 * The root chart of a platform. Domain constructs (operators, machine configs, the version target)
 * find it with `Platform.of(this)` to share what must be unique per cluster (one OperatorGroup per
 * namespace, one Namespace object per name) and to register cross-construct checks that run at
 * `finalize()`, just before synthesis.
 *
 * @example
 * const platform = new Platform(app, 'platform', { openshiftVersion: '4.16' });
 * new PlatformOperator(platform, 'gitops', { package: 'openshift-gitops-operator', channel: 'latest' });
 */
export class Platform extends Chart {
  /** Finds the Platform a construct belongs to; throws when there is none. */
  static override of(c: IConstruct): Platform {
    for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
      if ((s as unknown as Record<symbol, unknown>)[PLATFORM]) return s as Platform;
    }
    throw new Error(`${c.node.path}: must be created inside a Platform`);
  }

  static isPlatform(x: unknown): x is Platform {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[PLATFORM] === true;
  }

  readonly openshiftMinor: number;
  private readonly finalizers = new Map<string, () => void>();
  private readonly ignoreRules: IgnoreRule[] = [];
  private finalized = false;

  constructor(scope: Construct, id: string, props: PlatformProps) {
    super(scope, id, { disableResourceNameHashes: true });
    Object.defineProperty(this, PLATFORM, { value: true });
    const parsed = validateProps(this, propsSchema, props);
    this.openshiftMinor = parsed ? Number(parsed.openshiftVersion.split('.')[1]) : 0;
  }

  /** Registers a check or late object generation, run once by `finalize()`; keyed to avoid duplicates. */
  addFinalizer(key: string, fn: () => void): void {
    if (!this.finalizers.has(key)) this.finalizers.set(key, fn);
  }

  /** Ignores differences at `pointers` for every object of a kind (optionally one name/namespace). */
  ignoreDifferences(rule: IgnoreRule): void {
    for (const p of rule.pointers) {
      if (!p.startsWith('/'))
        Validation.error(
          this,
          'ignoreDifferences',
          `pointer ${JSON.stringify(p)} must start with "/"`,
          'use JSON pointer syntax, e.g. /spec/replicas',
        );
    }
    this.ignoreRules.push(rule);
  }

  /** Runs finalizers (in registration order), checks object names and expands ignore rules. Idempotent. */
  finalize(): void {
    if (this.finalized) return;
    this.finalized = true;
    for (const fn of this.finalizers.values()) fn();
    // After the finalizers: they may add objects.
    validateObjectNames(this);
    if (this.ignoreRules.length === 0) return;
    for (const obj of this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject)) {
      const pointers = this.ignoreRules.filter((r) => matches(r, obj)).flatMap((r) => r.pointers);
      if (pointers.length === 0) continue;
      const current = (obj.metadata.toJson() as { annotations?: Record<string, string> }).annotations;
      const existing = JSON.parse(current?.[ANNOTATIONS.ignoreDifferences] ?? '[]') as string[];
      obj.metadata.addAnnotation(
        ANNOTATIONS.ignoreDifferences,
        JSON.stringify([...new Set([...existing, ...pointers])].sort()),
      );
    }
  }
}

function matches(rule: IgnoreRule, obj: ApiObject): boolean {
  const group = obj.apiGroup === 'core' ? '' : obj.apiGroup;
  return (
    rule.kind === obj.kind &&
    (rule.group === undefined || rule.group === group) &&
    (rule.name === undefined || rule.name === obj.name) &&
    (rule.namespace === undefined || rule.namespace === obj.metadata.namespace)
  );
}
