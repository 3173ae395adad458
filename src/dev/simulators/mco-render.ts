import { createHash } from 'node:crypto';
import { isPlainObject, type K8sObject } from '../../core/object.js';
import { formatSelector, matchesLabelSelector, type LabelSelector } from '../../core/label-selector.js';
import { nodeApplyFailure, validateMachineConfig } from './mco-ignition.js';
import { canonical } from './json.js';

const ROLE_LABEL = 'machineconfiguration.openshift.io/role';
const GENERATED_BY_ANNOTATION = 'machineconfiguration.openshift.io/generated-by-controller-version';
const RELEASE_VERSION_ANNOTATION = 'machineconfiguration.openshift.io/release-image-version';

/** The render controller's salt for rendered names (`pkg/controller/render/hash.go`). */
const RENDER_SALT = Buffer.from([
  16, 124, 206, 228, 139, 56, 175, 175, 79, 229, 134, 118, 157, 154, 211, 110, 25, 93, 47, 253, 172, 106, 37,
  7, 174, 13, 160, 185, 110, 17, 87, 52, 219, 131, 12, 206, 218, 141, 116, 135, 188, 181, 192, 151, 233, 62,
  126, 165, 64, 83, 179, 119, 15, 168, 208, 197, 146, 107, 58, 227, 133, 188, 238, 26, 33, 26, 235, 202, 32,
  173, 31, 234, 41, 144, 148, 79, 6, 206, 23, 22,
]);

/** The outcome of rendering one pool: the rendered config, or the RenderDegraded message. */
type RenderResult =
  | {
      readonly ok: true;
      readonly name: string;
      readonly source: { apiVersion: string; kind: string; name: string }[];
      readonly spec: Record<string, unknown>;
      /** Set when nodes will fail to apply the config (see `nodeApplyFailure`). */
      readonly nodeFailure: string | undefined;
    }
  | { readonly ok: false; readonly message: string };

/** True for MachineConfigs the render controller generated (owned by a pool); they are never inputs. */
function isRendered(mc: K8sObject): boolean {
  return mc.metadata.ownerReferences?.some((o) => o.kind === 'MachineConfigPool') ?? false;
}

/**
 * The render controller's pass for one pool (machine-config-operator `pkg/controller/render/render_controller.go`,
 * `generateRenderedMachineConfig`): select MachineConfigs with `spec.machineConfigSelector`, validate
 * each (`validateMachineConfig`), merge them and name the result `rendered-<pool>-<hash>`.
 *
 * The name hashes content, as `getMachineConfigHashedName` does: an MD5 (32 hex digits) of a fixed
 * salt followed by the serialized merged spec. So a MachineConfig change that merges to the same
 * content gives the same name, and no rollout; a new release changes `osImageURL` and so the name.
 * The serialization is key-sorted JSON where the MCO uses YAML, so names differ from a real
 * cluster's for the same content (nothing may depend on the exact digits). Failures carry the
 * MCO's RenderDegraded message ("Failed to render configuration for pool <pool>: …").
 */
export function renderPool(
  pool: K8sObject,
  configs: readonly K8sObject[],
  releaseVersion: string | undefined,
): RenderResult {
  const name = pool.metadata.name;
  const fail = (err: string): RenderResult => ({
    ok: false,
    message: `Failed to render configuration for pool ${name}: ${err}`,
  });
  const selector = ((pool.spec as { machineConfigSelector?: LabelSelector } | undefined)
    ?.machineConfigSelector ?? {}) as LabelSelector;
  const selected = configs
    .filter((mc) => !isRendered(mc) && matchesLabelSelector(mc.metadata.labels ?? {}, selector))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  if (selected.length === 0)
    return fail(`no MachineConfigs found matching selector ${formatSelector(selector)}`);
  for (const mc of selected) {
    const err = validateMachineConfig((mc.spec ?? {}) as Record<string, unknown>);
    if (err) return fail(`could not generate rendered MachineConfig: ${err}`);
  }
  const spec = mergeConfigs(selected, releaseVersion);
  const hash = createHash('md5').update(RENDER_SALT).update(canonical(spec)).digest('hex');
  return {
    ok: true,
    name: `rendered-${name}-${hash}`,
    source: selected.map((mc) => ({
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      name: mc.metadata.name,
    })),
    spec,
    nodeFailure: nodeApplyFailure(spec),
  };
}

/**
 * `MergeMachineConfigs`, simplified: worker-role configs first, then the others, each by name;
 * Ignition files merged by path and units by name (later wins), kernel arguments and extensions
 * appended, `fips` if any, the last `kernelType` and `osImageURL`. The result is Ignition 3.4.0.
 * Without an `osImageURL` from any config, the release's OS image is used (the MCO takes it from
 * the ControllerConfig), so each release renders differently.
 */
function mergeConfigs(configs: readonly K8sObject[], releaseVersion?: string): Record<string, unknown> {
  const ordered = [
    ...configs.filter((c) => c.metadata.labels?.[ROLE_LABEL] === 'worker'),
    ...configs.filter((c) => c.metadata.labels?.[ROLE_LABEL] !== 'worker'),
  ];
  const files = new Map<string, unknown>();
  const units = new Map<string, unknown>();
  const kernelArguments: unknown[] = [];
  const extensions: unknown[] = [];
  let fips = false;
  let kernelType = '';
  let osImageURL = '';
  for (const mc of ordered) {
    const spec = (mc.spec ?? {}) as Record<string, unknown>;
    const config = isPlainObject(spec.config) ? spec.config : {};
    const storage = isPlainObject(config.storage) ? config.storage : {};
    const systemd = isPlainObject(config.systemd) ? config.systemd : {};
    for (const f of Array.isArray(storage.files) ? storage.files : [])
      if (isPlainObject(f)) files.set(String(f.path), f);
    for (const u of Array.isArray(systemd.units) ? systemd.units : [])
      if (isPlainObject(u)) units.set(String(u.name), u);
    if (Array.isArray(spec.kernelArguments)) kernelArguments.push(...spec.kernelArguments);
    if (Array.isArray(spec.extensions))
      extensions.push(...spec.extensions.filter((e) => !extensions.includes(e)));
    fips ||= spec.fips === true;
    if (typeof spec.kernelType === 'string' && spec.kernelType) kernelType = spec.kernelType;
    if (typeof spec.osImageURL === 'string' && spec.osImageURL) osImageURL = spec.osImageURL;
  }
  return {
    config: {
      ignition: { version: '3.4.0' },
      ...(files.size > 0 ? { storage: { files: [...files.values()] } } : {}),
      ...(units.size > 0 ? { systemd: { units: [...units.values()] } } : {}),
    },
    extensions,
    fips,
    kernelArguments,
    kernelType: kernelType || 'default',
    osImageURL: osImageURL || releaseOsImage(releaseVersion),
  };
}

/** A stand-in for the release payload's RHCOS image: one digest per release version. */
function releaseOsImage(releaseVersion: string | undefined): string {
  const digest = createHash('sha256')
    .update(releaseVersion ?? '')
    .digest('hex');
  return `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${digest}`;
}

/**
 * The rendered MachineConfig as the MCO creates it: no labels (so no pool selects it), the
 * controller-version and release-version annotations, and the pool as controlling owner.
 */
export function renderedMachineConfig(
  pool: K8sObject,
  rendered: { name: string; spec: Record<string, unknown> },
  annotations: { controllerVersion: string; releaseVersion: string | undefined },
): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      name: rendered.name,
      annotations: {
        [GENERATED_BY_ANNOTATION]: annotations.controllerVersion,
        ...(annotations.releaseVersion ? { [RELEASE_VERSION_ANNOTATION]: annotations.releaseVersion } : {}),
      },
      ownerReferences: [
        {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'MachineConfigPool',
          name: pool.metadata.name,
          uid: pool.metadata.uid ?? '',
        },
      ],
    },
    spec: rendered.spec,
  };
}
