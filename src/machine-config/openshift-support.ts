/**
 * What each OpenShift minor's machine-config operator accepts, read from the release branches of
 * openshift/machine-config-operator (`ign3types` in `pkg/controller/common/helpers.go`,
 * `SupportedExtensions()`, the kernel type constants).
 */

export type IgnitionVersion = '3.2.0' | '3.4.0' | '3.5.0';
export type KernelType = 'default' | 'realtime' | '64k-pages';

/** The oldest OpenShift minor whose MachineConfigs Groundwork renders. */
export const OLDEST_MINOR = 8;

/**
 * The Ignition spec version the MCO of OpenShift 4.`minor` renders (its `MaxVersion`): 3.2.0 for
 * 4.8–4.13, 3.4.0 for 4.14–4.18, 3.5.0 from 4.19. Undefined before 4.8.
 */
export function ignitionVersionFor(minor: number): IgnitionVersion | undefined {
  if (minor < OLDEST_MINOR) return undefined;
  if (minor <= 13) return '3.2.0';
  if (minor <= 18) return '3.4.0';
  return '3.5.0';
}

/** RHCOS extensions and the OpenShift minors that accept them (`[first, last]`, last open-ended when absent). */
const EXTENSIONS: Readonly<Record<string, readonly [number, number?]>> = {
  usbguard: [8],
  'kernel-devel': [8],
  'sandboxed-containers': [8],
  kerberos: [11],
  ipsec: [14],
  wasm: [14, 21],
  sysstat: [18],
  'two-node-ha': [19],
};

/** The extensions OpenShift 4.`minor` accepts, sorted. */
export function supportedExtensions(minor: number): string[] {
  return Object.entries(EXTENSIONS)
    .filter(([, [first, last]]) => minor >= first && (last === undefined || minor <= last))
    .map(([name]) => name)
    .sort();
}

/** The first minor that accepts a kernel type (`64k-pages` is aarch64-only and arrived in 4.15). */
export const KERNEL_TYPE_SINCE: Readonly<Record<KernelType, number>> = {
  default: OLDEST_MINOR,
  realtime: OLDEST_MINOR,
  '64k-pages': 15,
};
