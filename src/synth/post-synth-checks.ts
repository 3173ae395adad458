import type { App } from 'cdk8s';
import { checkPinsAgainstCatalogs } from '../olm/pin-check.js';
import { checkSubscriptions } from '../olm/subscription-check.js';
import type { ProjectConfig } from './config.js';
import type { Manifest } from './manifest.js';
import type { ValidationIssue } from './validation.js';

/** What a whole-platform check sees once every construct has been synthesized. */
export interface PostSynthContext {
  app: App;
  config: ProjectConfig;
  manifests: readonly Manifest[];
  /** Repository root, for files named in groundwork.yaml (catalogs, graphs). */
  dir: string;
}

export type PostSynthCheck = (ctx: PostSynthContext) => Promise<ValidationIssue[]>;

/**
 * Checks that need the whole desired state or repository data (operator pins against catalog
 * files, the version target against graph files). Registered here so synth stays one pass.
 */
const checks: PostSynthCheck[] = [checkPinsAgainstCatalogs, checkSubscriptions];

export async function runPostSynthChecks(ctx: PostSynthContext): Promise<ValidationIssue[]> {
  return (await Promise.all(checks.map((c) => c(ctx)))).flat();
}
