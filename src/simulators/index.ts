/**
 * Simulators: small controllers that play OLM, the cluster-version operator and the machine-config
 * operator against a real apiserver, writing status in the shapes real clusters write. Used by e2e
 * tests and the local quick start; see docs/simulators.md.
 */
export { PollingLoop, type ErrorHandler, type Simulator } from './loop.js';
export { systemClock, timestamp, type Clock } from './clock.js';
export { writeStatus } from './status.js';
export { OlmSimulator, type OlmSimulatorOptions, type SourcedSyntheticPackage } from './olm.js';
export {
  SyntheticCatalogInvalidError,
  catalogFromFiles,
  defaultPlural,
  loadSimulatorCatalog,
  mergeCatalogs,
  syntheticCatalog,
  toSimulatorCatalog,
  type CatalogInput,
  type OwnedCRD,
  type SimulatorCatalog,
  type SyntheticCSV,
  type SyntheticPackage,
} from './olm-catalog.js';
export {
  CvoSimulator,
  type ClusterVersionStatus,
  type CvoSimulatorOptions,
  type HistoryEntry,
} from './cvo.js';
export {
  CAPABILITIES_4_14,
  CLUSTER_OPERATORS_4_14,
  createClusterOperators,
  installClusterVersion,
  setClusterOperatorCondition,
  type CreateClusterOperatorsOptions,
  type InstallClusterVersionOptions,
} from './cvo-install.js';
export type { RiskEvaluator } from './cvo-updates.js';
export { McoSimulator, UnknownPoolError, type McoSimulatorOptions } from './mco.js';
export type { SimNode } from './mco-nodes.js';
export { SUPPORTED_IGNITION_VERSIONS, validateMachineConfig } from './mco-ignition.js';
export {
  CincinnatiResponseInvalidError,
  UpdateService,
  parseCincinnati,
  type CincinnatiGraph,
  type CincinnatiRisk,
  type ServedRelease,
} from './cincinnati.js';
export { meshGraph, payloadOf, updateServiceGraph } from './update-service.js';
export { readFbc, readFbcFiles, FbcUnreadableError, type FbcCatalog } from './fbc.js';
