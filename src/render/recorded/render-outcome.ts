import type { ChartSource } from '../helm/chart-files.js';

/** Bounds of one render. */
export interface RenderLimits {
  timeoutMs: number;
  outputCapBytes: number;
}

/** A render's output, or its problem as a validation issue of the recording construct would say it. */
export type RenderOutcome =
  | {
      ok: true;
      text: string;
      chart?: ChartFacts;
      /** The render cache's key of this output, when it may be cached; `cached` when it came from there. */
      cacheKey?: string;
      cached?: boolean;
      /** The chart helm rendered (a helm render's): its files are read for warnings (`lookup`). */
      source?: ChartSource;
    }
  | {
      ok: false;
      problem: string;
      field: string;
      fix?: string;
      /** The overlay keys the failing value probably came from (`ValidationIssue.from`). */
      from?: string;
      /** What the tool warned of besides its error (kustomize's deprecations), each one line. */
      warnings?: string[];
    };

/** What a helm render knows of its chart: the version, and a hash of the values given. */
export interface ChartFacts {
  version?: string;
  valuesHash: string;
}
