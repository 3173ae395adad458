/** Machine configuration: MachineConfigs, MachineConfigPools and their maintenance windows. */
export {
  MachineConfig,
  defaultName,
  type FileContents,
  type MachineConfigFile,
  type MachineConfigProps,
  type SystemdUnit,
} from './machine-config.js';
export { MachineConfigPool, ROLE_LABEL, type MachineConfigPoolProps } from './pool.js';
export {
  WEEKDAYS,
  describeWindow,
  durationMinutes,
  maintenanceWindowSchema,
  maintenanceWindowsSchema,
  parseWindows,
  serializeWindows,
  windowState,
  type MaintenanceWindow,
  type WindowState,
  type Weekday,
} from '../core/window.js';
export { bytesDataUrl, decodeDataUrl, isBase64, textDataUrl } from './data-url.js';
export {
  ignitionVersionFor,
  supportedExtensions,
  KERNEL_TYPE_SINCE,
  OLDEST_MINOR,
  type IgnitionVersion,
  type KernelType,
} from './openshift-support.js';
export type { ConfigEntry, IgnitionConfig, IgnitionFile, IgnitionUnit } from './ignition.js';
export { MAX_MACHINE_CONFIG_BYTES, UNIT_SUFFIXES, parseMode } from './rules.js';
