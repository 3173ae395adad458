// What platform code records for the synth parent to render: plain data, parsed with zod when it
// crosses from the sandboxed child to the parent.
import { z } from 'zod';

/** JSON data only: what a values file can hold (no functions, no class instances, no tokens). */
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

/** A path the repository names: relative, `/`-separated; the parent confines its real path. */
const repoPath = z.string().min(1).max(4096);

/** A chart in a directory of the checkout, rendered with `helm template`. */
const helmRequestSchema = z.strictObject({
  engine: z.literal('helm'),
  /** Construct path of the recording construct, e.g. `platform/ingress`. */
  path: z.string(),
  /** The chart's directory, relative to the checkout; with `repo`, the chart's name in that repository. */
  chart: repoPath,
  /** An HTTP chart repository: the chart is the archive `groundwork-charts.lock.yaml` pins for it. */
  repo: z.string().url().optional(),
  /** The chart's version, checked against its Chart.yaml when given. */
  version: z.string().optional(),
  releaseName: z.string(),
  namespace: z.string().optional(),
  /** Values given in code (overlay values included), applied after `valuesFiles`. */
  values: z.record(z.string(), jsonValue),
  /** Values files in the checkout, in order (later wins), applied before `values`. */
  valuesFiles: z.array(repoPath),
  includeCrds: z.boolean(),
  /** Keep `helm.sh/hook: test` objects (dropped by default). */
  includeTests: z.boolean(),
  /** `Capabilities.APIVersions` beyond helm's built-in list (`--api-versions`). */
  apiVersions: z.array(z.string()),
  /** Fields of the chart's objects plan and drift ignore, and a second render may change. */
  ignoreDifferences: z.array(
    z.strictObject({ kind: z.string(), name: z.string().optional(), pointers: z.array(z.string()) }),
  ),
  /** `Capabilities.KubeVersion` (`--kube-version`), e.g. `v1.29.0`; helm's own default when absent. */
  kubeVersion: z.string().optional(),
});

/** A Kustomize directory of the checkout, rendered with `kustomize build`. */
const kustomizeRequestSchema = z.strictObject({
  engine: z.literal('kustomize'),
  path: z.string(),
  /** The directory holding `kustomization.yaml`, relative to the checkout. */
  dir: repoPath,
});

export const renderRequestSchema = z.discriminatedUnion('engine', [
  helmRequestSchema,
  kustomizeRequestSchema,
]);

/** One chart or Kustomize directory to render, as recorded by `HelmChart`, `Helm` or `Kustomization`. */
export type RenderRequest = z.infer<typeof renderRequestSchema>;
export type HelmRequest = z.infer<typeof helmRequestSchema>;
export type KustomizeRequest = z.infer<typeof kustomizeRequestSchema>;
