import type { App } from 'cdk8s';
import type { ProjectConfig } from '../../project/config.js';
import type { Manifest } from './manifest.js';
import type { ValidationIssue } from './validation.js';

/** What a whole-platform check sees once every construct has been synthesized and every chart rendered. */
export interface PostSynthContext {
  /** The construct tree, when the checks run in-process right after synth (`synthesize`); absent after a sandboxed render. */
  app?: App;
  config: ProjectConfig;
  manifests: readonly Manifest[];
  /** Repository root, for files named in groundwork.yaml (catalogs, graphs). */
  dir: string;
}

/**
 * A check that needs the whole desired state or repository data (operator pins against catalog
 * files, the version target against graph files). The domains provide them; synth takes the list
 * as an option and never imports a domain. The list the agent and the CLI hand over is
 * `POST_SYNTH_CHECKS` in `src/reconcile/domains.ts`; they run once, on the rendered result
 * (`checkResults`), outside the sandbox that ran platform code.
 */
export type PostSynthCheck = (ctx: PostSynthContext) => Promise<ValidationIssue[]>;

/** Runs `checks` on the synthesized platform, at once, and returns every issue they found. */
export async function runPostSynthChecks(
  ctx: PostSynthContext,
  checks: readonly PostSynthCheck[],
): Promise<ValidationIssue[]> {
  return (await Promise.all(checks.map((c) => c(ctx)))).flat();
}
