import type { Construct } from 'constructs';
import type { z } from 'zod';

const DEFINITION = Symbol.for('groundwork.PlatformDefinition');

/** What an overlay build sees besides its values. */
export interface BuildContext {
  /** Overlay name, e.g. `prod` or `clusters/prod-eu-1`. */
  readonly overlay: string;
  /** Platform name from groundwork.yaml. */
  readonly platform: string;
}

/** A platform module's default export: the overlay value schema and the build function. */
export interface PlatformDefinition<S extends z.ZodType = z.ZodType> {
  /** zod schema of overlay values; every overlay file is validated against it. */
  readonly values: S;
  /** Declares the platform's constructs under `scope` for one overlay's values. */
  build(scope: Construct, values: z.infer<S>, context: BuildContext): void;
}

/**
 * Declares a platform: typed overlay values and the constructs built from them.
 *
 * @example
 * export default definePlatform({
 *   values: z.object({ openshift: z.string() }),
 *   build(scope, values) {
 *     const platform = new Platform(scope, 'platform', { openshiftVersion: values.openshift });
 *   },
 * });
 */
export function definePlatform<S extends z.ZodType>(def: PlatformDefinition<S>): PlatformDefinition<S> {
  return Object.defineProperty({ ...def }, DEFINITION, { value: true });
}

export function isPlatformDefinition(x: unknown): x is PlatformDefinition {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[DEFINITION] === true;
}
