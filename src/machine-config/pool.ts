import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { z } from 'zod';
import { ANNOTATIONS } from '../core/annotations.js';
import { Platform } from '../render/synth/platform.js';
import { Validation } from '../render/synth/validation.js';
import { addProblem, parseProps } from './issues.js';
import { roleSchema } from './machine-config-schema.js';
import { registerPool } from './registry.js';
import { maintenanceWindowsSchema, serializeWindows, type MaintenanceWindow } from '../core/window.js';
import { ROLE_LABEL } from './pool-selection.js';

export { ROLE_LABEL };
const BUILT_IN = new Set(['master', 'worker']);

export interface MachineConfigPoolProps {
  /** The pool and its role, e.g. `infra`; `master` and `worker` refer to the built-in pools. */
  readonly name: string;
  /**
   * Custom pools only: also take the worker pool's MachineConfigs (selector: role in [worker, name]).
   * Without them, nodes miss the base OS configuration. @default true
   */
  readonly inheritsWorker?: boolean;
  /** Custom pools only. @default { 'node-role.kubernetes.io/<name>': '' } */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Machines updated at once: a count (at least 1) or a percentage such as `'10%'`. @default the MCO's default, 1 */
  readonly maxUnavailable?: number | string;
  /** A fixed `spec.paused`. Not with maintenance windows; on master only with `managePause: true`. */
  readonly paused?: boolean;
  /** When the pool may update; outside them Groundwork keeps it paused. */
  readonly maintenanceWindows?: readonly MaintenanceWindow[];
  /** Allows Groundwork to pause and unpause the pool. @default true when windows are declared, except on master, which needs it explicitly */
  readonly managePause?: boolean;
}

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

const schema = z
  .strictObject({
    name: roleSchema,
    inheritsWorker: z.boolean().optional(),
    nodeSelector: z
      .record(
        z.string().regex(LABEL_KEY, { error: 'not a label key' }),
        z.string().regex(LABEL_VALUE, { error: 'not a label value' }),
      )
      .optional(),
    maxUnavailable: z
      .union([z.number().int().min(1), z.string().regex(/^(100|[1-9]\d?)%$/)], {
        error: "maxUnavailable must be a whole number of at least 1 or a percentage from '1%' to '100%'",
      })
      .optional(),
    paused: z.boolean().optional(),
    maintenanceWindows: maintenanceWindowsSchema.optional(),
    managePause: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    const builtIn = BUILT_IN.has(p.name);
    const windows = (p.maintenanceWindows ?? []).length > 0;
    if (builtIn && p.inheritsWorker !== undefined)
      addProblem(
        ctx,
        { message: `the built-in ${p.name} pool has fixed selectors`, fix: 'remove inheritsWorker' },
        ['inheritsWorker'],
      );
    if (builtIn && p.nodeSelector !== undefined)
      addProblem(
        ctx,
        { message: `the built-in ${p.name} pool has fixed selectors`, fix: 'remove nodeSelector' },
        ['nodeSelector'],
      );
    if (p.nodeSelector && Object.keys(p.nodeSelector).length === 0)
      addProblem(
        ctx,
        {
          message: 'an empty nodeSelector selects every node, control plane included',
          fix: `omit it for node-role.kubernetes.io/${p.name}`,
        },
        ['nodeSelector'],
      );
    if (p.name === 'master' && p.paused !== undefined && p.managePause !== true) {
      addProblem(
        ctx,
        {
          message: "Groundwork never touches master's spec.paused unless managePause: true is declared",
          fix: 'add managePause: true, or remove paused',
        },
        ['paused'],
      );
    }
    if (p.name === 'master' && windows && p.managePause !== true) {
      addProblem(
        ctx,
        {
          message:
            'maintenance windows on master pause the control plane pool, which needs managePause: true',
          fix: 'add managePause: true',
        },
        ['managePause'],
      );
    }
    if (windows && p.managePause === false)
      addProblem(
        ctx,
        {
          message: 'maintenance windows work by pausing the pool outside them',
          fix: 'remove managePause: false, or the windows',
        },
        ['managePause'],
      );
    if (windows && p.paused !== undefined)
      addProblem(
        ctx,
        {
          message:
            'paused conflicts with maintenanceWindows: with windows, Groundwork pauses and unpauses the pool',
          fix: 'remove paused',
        },
        ['paused'],
      );
  });

/**
 * A MachineConfigPool. A custom pool (`infra`, …) is emitted whole: it selects MachineConfigs with
 * role `worker` or its name (unless `inheritsWorker: false`) and nodes labelled
 * `node-role.kubernetes.io/<name>`, and carries the `pools.operator.machineconfiguration.openshift.io/<name>`
 * label that KubeletConfigs and ContainerRuntimeConfigs select on. `master` and `worker` are the
 * built-in pools: they are emitted only when settings are declared, with just those settings
 * (selectors stay the MCO's) and `groundwork.io/prune: keep`, so dropping the declaration never
 * deletes them. Windows and pause management are annotations the engine reads.
 *
 * @example
 * const infra = new MachineConfigPool(platform, 'infra', { name: 'infra', maxUnavailable: 1,
 *   maintenanceWindows: [{ days: ['Sat', 'Sun'], start: '02:00', duration: '4h', timezone: 'Europe/Berlin' }] });
 * new MachineConfigPool(platform, 'worker', { name: 'worker', maxUnavailable: '10%' });
 */
export class MachineConfigPool extends Construct {
  readonly name: string;
  /** `master` or `worker`: a reference to a pool the MCO owns. */
  readonly builtIn: boolean;
  readonly inheritsWorker: boolean;
  /** Whether Groundwork may pause and unpause this pool (the `groundwork.io/manage-pause` annotation). */
  readonly managesPause: boolean;
  /** False when props were invalid and nothing was emitted. */
  readonly valid: boolean;

  constructor(scope: Construct, id: string, props: MachineConfigPoolProps) {
    super(scope, id);
    this.name = props.name;
    this.builtIn = BUILT_IN.has(props.name);
    this.inheritsWorker = !this.builtIn && (props.inheritsWorker ?? true);
    const windows = props.maintenanceWindows ?? [];
    this.managesPause = props.managePause ?? (windows.length > 0 && props.name !== 'master');
    registerPool(Platform.of(this), this);
    const p = parseProps(this, schema, props, {
      name: "use the pool's role, a DNS label such as 'infra'",
      maxUnavailable: "e.g. 1 or '10%'",
      nodeSelector: "e.g. { 'node-role.kubernetes.io/infra': '' }",
    });
    this.valid = p !== undefined;
    if (!p) return;
    if (!this.builtIn && !this.inheritsWorker) {
      Validation.warn(
        this,
        'inheritsWorker',
        `pool ${p.name} does not take the worker MachineConfigs, so its nodes miss the base OS configuration unless you provide all of it`,
        'remove inheritsWorker: false',
      );
    }
    if (p.name === 'master' && p.maxUnavailable !== undefined && p.maxUnavailable !== 1) {
      Validation.warn(
        this,
        'maxUnavailable',
        'the etcd quorum guard lets only one control plane node update at a time',
        'remove maxUnavailable on master',
      );
    }
    const declared =
      p.maxUnavailable !== undefined ||
      p.paused !== undefined ||
      windows.length > 0 ||
      p.managePause !== undefined;
    if (this.builtIn && !declared) return;

    const annotations: Record<string, string> = {};
    if (this.builtIn) {
      annotations[ANNOTATIONS.prune] = 'keep';
      // The installer created the pool and owns its fields; the declared ones are taken over.
      annotations[ANNOTATIONS.conflicts] = 'force';
    }
    if (windows.length > 0) {
      annotations[ANNOTATIONS.maintenanceWindows] = serializeWindows(p.maintenanceWindows ?? []);
      // The engine flips spec.paused with the windows; that is not drift.
      annotations[ANNOTATIONS.ignoreDifferences] = JSON.stringify(['/spec/paused']);
    }
    if (this.managesPause) annotations[ANNOTATIONS.managePause] = 'true';
    new ApiObject(this, 'Resource', {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: {
        name: p.name,
        ...(this.builtIn
          ? {}
          : { labels: { [`pools.operator.machineconfiguration.openshift.io/${p.name}`]: '' } }),
        ...(Object.keys(annotations).length ? { annotations } : {}),
      },
      spec: {
        ...(this.builtIn ? {} : this.selectors(p.name, p.nodeSelector)),
        ...(p.maxUnavailable !== undefined ? { maxUnavailable: p.maxUnavailable } : {}),
        ...(p.paused !== undefined ? { paused: p.paused } : {}),
      },
    });
  }

  private selectors(name: string, nodeSelector: Record<string, string> | undefined): Record<string, unknown> {
    return {
      machineConfigSelector: this.inheritsWorker
        ? { matchExpressions: [{ key: ROLE_LABEL, operator: 'In', values: ['worker', name] }] }
        : { matchLabels: { [ROLE_LABEL]: name } },
      nodeSelector: { matchLabels: nodeSelector ?? { [`node-role.kubernetes.io/${name}`]: '' } },
    };
  }
}
