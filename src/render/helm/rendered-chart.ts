/**
 * A Helm chart as a synth rendered it, kept on the result (`SynthResult.charts`) so that a preview
 * can say which chart changed version or values, and which objects changed with it.
 */
export interface RenderedChart {
  /** Construct path of the chart (the `source` of its objects). */
  path: string;
  /** The chart's directory, or its name in `repo`. */
  chart: string;
  repo?: string;
  /** Chart.yaml's version (a directory) or the locked version (a repository). */
  version?: string;
  /** `sha256:` of the values given (values files' contents, then the code's values). */
  valuesHash: string;
}
