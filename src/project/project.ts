import { loadProjectConfig, type ProjectConfig } from './config.js';
import { environmentOf, type Environment } from './environments.js';

/**
 * A checkout's groundwork.yaml, read and validated once (`loadProject`), with the directory it was
 * read from: its name, entry, overlays, catalogs, graphs and environments (each with its
 * notifications). The agent, the CLI and bootstrap hand this value down; nothing below them reads
 * groundwork.yaml again for the same checkout.
 */
export interface Project extends ProjectConfig {
  /** The directory holding groundwork.yaml (a checkout, or the CLI's `--dir`). */
  readonly dir: string;
}

/**
 * Reads and validates `<dir>/groundwork.yaml` into a `Project`. Throws what `loadProjectConfig`
 * throws (`InvalidConfig` naming the file and line, `PathOutsideCheckout`, `FileTooLarge`); reads
 * nothing else (catalogs and graphs are read by `loadPlatformData`, the platform by synth).
 */
export async function loadProject(dir: string): Promise<Project> {
  return { ...(await loadProjectConfig(dir)), dir };
}

/** The environment of `project` that `overlay` belongs to (its ref, verify, notifications), if any. */
export function environmentFor(project: ProjectConfig, overlay: string): Environment | undefined {
  return environmentOf(project.environments ?? [], overlay);
}
