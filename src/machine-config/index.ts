/** Machine configuration: MachineConfigs, MachineConfigPools and their maintenance windows. */
export {
  MachineConfig,
  type FileContents,
  type MachineConfigFile,
  type MachineConfigProps,
  type SystemdUnit,
} from './machine-config.js';
export { MachineConfigPool, type MachineConfigPoolProps } from './pool.js';
export { maintenanceWindowSchema, type MaintenanceWindow } from '../core/window.js';
export { bytesDataUrl, decodeDataUrl, isBase64, textDataUrl } from './data-url.js';
