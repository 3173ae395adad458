import type { App } from 'cdk8s';
import type { ProjectConfig } from './config.js';
import type { Manifest } from './manifest.js';
import type { ValidationIssue } from './validation.js';

/** What a whole-platform check sees once every construct has been synthesized. */
export interface PostSynthContext {
  /** Absent when the checks run again after the charts rendered, outside the synth child (`renderRecorded`). */
  app?: App;
  config: ProjectConfig;
  manifests: readonly Manifest[];
  /** Repository root, for files named in groundwork.yaml (catalogs, graphs). */
  dir: string;
}

/**
 * A check that needs the whole desired state or repository data (operator pins against catalog
 * files, the version target against graph files). The domains provide them; synth takes the list
 * as an option (`SynthOptions.checks`) and never imports a domain. The list the synth child runs
 * is `POST_SYNTH_CHECKS` in `src/engine/domains.ts`.
 */
export type PostSynthCheck = (ctx: PostSynthContext) => Promise<ValidationIssue[]>;

/** Runs `checks` on the synthesized platform, at once, and returns every issue they found. */
export async function runPostSynthChecks(
  ctx: PostSynthContext,
  checks: readonly PostSynthCheck[],
): Promise<ValidationIssue[]> {
  return (await Promise.all(checks.map((c) => c(ctx)))).flat();
}
