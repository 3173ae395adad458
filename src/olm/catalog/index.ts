export type { Bundle, Catalog, CatalogPackage, Channel, ChannelEntry, ExcludedEntry } from './model.js';
export type { CatalogFile, CatalogProblem } from './blobs.js';
export { formatProblem } from './blobs.js';
export { buildChannel } from './channel-graph.js';
export { CatalogInvalidError, CatalogUnreadableError } from './errors.js';
export { loadCatalog, readCatalogFiles, USER_CATALOG_MAX_BYTES } from './load-catalog.js';
export { parseCatalog, type ParseCatalogOptions } from './parse-catalog.js';
export {
  findBundle,
  findChannel,
  listChannels,
  listPackages,
  type ChannelSummary,
  type PackageSummary,
} from './queries.js';
