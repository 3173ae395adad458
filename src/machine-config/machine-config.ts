import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Platform } from '../render/synth/platform.js';
import { Validation } from '../render/synth/validation.js';
import { entriesOf, renderIgnition, type ConfigEntry } from './ignition.js';
import { parseProps } from './issues.js';
import { machineConfigNameSchema, machineConfigSchema } from './machine-config-schema.js';
import {
  ignitionVersionFor,
  OLDEST_MINOR,
  type IgnitionVersion,
  type KernelType,
} from './openshift-support.js';
import { MachineConfigPool, ROLE_LABEL } from './pool.js';
import { registerConfig, type RegisteredConfig } from './registry.js';
import { MAX_MACHINE_CONFIG_BYTES } from './rules.js';

/** File contents: text (`string` or `{ text }`), `{ base64 }`, or bytes (`Uint8Array`, `Buffer`). */
export type FileContents = string | { readonly text: string } | { readonly base64: string } | Uint8Array;

export interface MachineConfigFile {
  /** Absolute and clean: no `.`/`..` segments, no `//`, no trailing `/`; not under read-only `/usr` (except `/usr/local`). */
  readonly path: string;
  /** A number is the mode itself (`0o644`); a string is octal (`'0644'`). At most 0o777. @default 0o644 */
  readonly mode?: number | string;
  readonly contents: FileContents;
  /** @default true (what the MCO does for every file) */
  readonly overwrite?: boolean;
}

export interface SystemdUnit {
  /** With a unit type suffix: `.service`, `.socket`, `.timer`, `.mount`, … */
  readonly name: string;
  readonly enabled?: boolean;
  readonly mask?: boolean;
  /** The whole unit file; omit to only enable, mask or add drop-ins to a unit the OS ships. */
  readonly contents?: string;
  /** Files in `<name>.d/`; each name ends in `.conf`. */
  readonly dropins?: readonly { readonly name: string; readonly contents: string }[];
}

export interface MachineConfigProps {
  /** @default `99-<role>-<construct id>` (the id lowercased, other characters as `-`) */
  readonly name?: string;
  /** The pool whose nodes get this config: a MachineConfigPool, `'master'`, `'worker'` or a custom pool's role. */
  readonly pool: MachineConfigPool | 'master' | 'worker' | (string & {});
  readonly files?: readonly MachineConfigFile[];
  readonly units?: readonly SystemdUnit[];
  /** Appended to the kernel command line (`spec.kernelArguments`). */
  readonly kernelArguments?: readonly string[];
  /** RHCOS extensions, checked against what the platform's OpenShift minor offers. */
  readonly extensions?: readonly string[];
  readonly kernelType?: KernelType;
  /** Only takes effect at install time: the MCO refuses to change FIPS on a running cluster. */
  readonly fips?: boolean;
  /**
   * Raw Ignition 3.x merged under the rendered config (its files and units come first). Held to
   * the same rules; sections the MCO cannot apply (directories, links, appends, groups, users other
   * than core, disks, RAID, filesystems, LUKS, Ignition kernelArguments) are rejected.
   */
  readonly ignition?: Readonly<Record<string, unknown>>;
}

const FIXES: Record<string, string> = {
  pool: "pass a MachineConfigPool, 'master', 'worker' or a custom pool's name",
  files: 'each file is { path, contents, mode?, overwrite? }',
  units: 'each unit is { name, enabled?, mask?, contents?, dropins? }',
  kernelType: "use 'default', 'realtime' or '64k-pages'",
  ignition: 'pass an Ignition config object such as { storage: { files: [...] } }',
};

/**
 * A MachineConfig for one pool, rendered as Ignition in the version the platform's OpenShift minor
 * expects (3.2.0 up to 4.13, 3.4.0 up to 4.18, 3.5.0 from 4.19). File contents become `data:` URLs
 * and modes decimal integers. Checks what the API server does not (see docs/machine-config.md),
 * records every problem with its prop path, and emits nothing when there is one.
 *
 * @example
 * new MachineConfig(platform, 'chrony', {
 *   pool: 'worker',
 *   files: [{ path: '/etc/chrony.conf', mode: '0644', contents: 'server ntp.example.com iburst\n' }],
 *   units: [{ name: 'chronyd.service', enabled: true }],
 * }); // → MachineConfig 99-worker-chrony
 */
export class MachineConfig extends Construct implements RegisteredConfig {
  /** `metadata.name`. */
  readonly name: string;
  /** The `machineconfiguration.openshift.io/role` label. */
  readonly role: string;
  /** Undefined when the platform's OpenShift version is invalid or older than 4.8. */
  readonly ignitionVersion: IgnitionVersion | undefined;
  private _entries: readonly ConfigEntry[] = [];
  private _sizeBytes = 0;
  private resource: ApiObject | undefined;

  constructor(scope: Construct, id: string, props: MachineConfigProps) {
    super(scope, id);
    const platform = Platform.of(this);
    this.role = props.pool instanceof MachineConfigPool ? props.pool.name : props.pool;
    this.name = props.name ?? defaultName(this.role, id);
    this.ignitionVersion = ignitionVersionFor(platform.openshiftMinor);
    registerConfig(platform, this);
    if (!this.ignitionVersion) {
      // Minor 0: the Platform already reported its invalid version.
      if (platform.openshiftMinor > 0)
        Validation.error(
          this,
          '',
          `MachineConfigs need OpenShift 4.${OLDEST_MINOR} or later; the platform targets 4.${platform.openshiftMinor}`,
        );
      return;
    }
    const p = parseProps(
      this,
      machineConfigSchema({ minor: platform.openshiftMinor, ignitionVersion: this.ignitionVersion }),
      { ...props, pool: this.role },
      FIXES,
    );
    const nameOk = props.name !== undefined || this.checkDefaultName();
    if (!p || !nameOk) return;

    if (p.fips)
      Validation.warn(
        this,
        'fips',
        'FIPS can only be set at install time: the MCO refuses to change it on a running cluster and the pool degrades',
        'set fips in install-config.yaml instead',
      );
    (p.units ?? []).forEach((u, i) => {
      // Ignition's own warning: enabling needs the unit's [Install] section.
      if (u.enabled && u.contents !== undefined && !/^\s*\[Install\]\s*$/m.test(u.contents)) {
        Validation.warn(
          this,
          `units[${i}].enabled`,
          `${u.name} has no [Install] section, so systemd cannot enable it`,
          'add [Install] with e.g. WantedBy=multi-user.target',
        );
      }
    });
    const config = renderIgnition(p, this.ignitionVersion);
    const spec = {
      config,
      ...(p.kernelArguments?.length ? { kernelArguments: p.kernelArguments } : {}),
      ...(p.extensions?.length ? { extensions: p.extensions } : {}),
      ...(p.kernelType ? { kernelType: p.kernelType } : {}),
      ...(p.fips !== undefined ? { fips: p.fips } : {}),
    };
    if (
      Object.keys(spec).length === 1 &&
      !config.storage &&
      !config.systemd &&
      Object.keys(config).length === 1
    ) {
      Validation.warn(
        this,
        '',
        'this MachineConfig changes nothing',
        'add files, units, kernelArguments or extensions, or remove it',
      );
    }
    const body = {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: this.name, labels: { [ROLE_LABEL]: this.role } },
      spec,
    };
    const size = Buffer.byteLength(JSON.stringify(body));
    if (size > MAX_MACHINE_CONFIG_BYTES) {
      Validation.error(
        this,
        '',
        `the MachineConfig is ${size} bytes, over the MCO's limit of ${MAX_MACHINE_CONFIG_BYTES} (1.5 MiB) for a rendered config`,
        'move large files out of MachineConfigs (e.g. into a container image or a DaemonSet)',
      );
      return;
    }
    this._entries = entriesOf(p);
    this._sizeBytes = size;
    this.resource = new ApiObject(this, 'Resource', body);
  }

  /** Files and units this config writes (empty when nothing was emitted). */
  get entries(): readonly ConfigEntry[] {
    return this._entries;
  }

  /** JSON size of the emitted object in bytes; 0 when nothing was emitted. */
  get sizeBytes(): number {
    return this._sizeBytes;
  }

  /** True when the MachineConfig object is (still) emitted. */
  get emitted(): boolean {
    return this.resource !== undefined;
  }

  /** @internal Withdraws the object after a platform-wide check failed. */
  retract(): void {
    if (!this.resource) return;
    this.node.tryRemoveChild(this.resource.node.id);
    this.resource = undefined;
    this._entries = [];
    this._sizeBytes = 0;
  }

  private checkDefaultName(): boolean {
    const parsed = machineConfigNameSchema.safeParse(this.name);
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      Validation.error(
        this,
        'name',
        `default name ${JSON.stringify(this.name)} (99-<role>-<construct id>): ${issue.message}`,
        'set name, or use another construct id',
      );
    }
    return parsed.success;
  }
}

/**
 * `99-<role>-<id>`: the id lowercased, runs of other characters as `-`. The MCO merges configs in name
 * order, later ones winning; `99-` sorts after its base configs (`00-`, `01-`, `97-`, `98-`).
 */
function defaultName(role: unknown, id: string): string {
  const slug = id
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return `99-${String(role)}-${slug}`;
}
