import { Construct } from 'constructs';
import { z } from 'zod';
import { Validation, validateProps } from '../synth/validation.js';
import { defaultKubeVersion } from './kube-version.js';
import { isOci, parseOciChart } from './oci-reference.js';
import { recordRender } from '../recorded/recorded.js';
import type { HelmRequest } from '../recorded/render-request.js';

export interface HelmChartProps {
  /**
   * The chart's directory in the repository, relative to the repository root (`charts/ingress`);
   * or an OCI chart as helm names it (`oci://ghcr.io/org/charts/podinfo`, with an exact `version`).
   * With `repo`, the chart's name in that chart repository or registry.
   */
  readonly chart: string;
  /**
   * An HTTP chart repository (`https://charts.example.com`) or an OCI registry path
   * (`oci://ghcr.io/org/charts`, as Flux's `HelmRepository` of type oci): `chart` is then the
   * chart's name in it, and `version` an exact version. Synth renders the archive
   * `groundwork-charts.lock.yaml` pins (`groundwork chart lock`; for OCI by manifest digest), from
   * the cache or fetched anonymously and checked against its digest.
   * @default the chart is a directory of the repository
   */
  readonly repo?: string;
  /**
   * The chart version: required with `repo`; for a directory, the version expected in its
   * Chart.yaml (synth fails when the directory holds another). @default any
   */
  readonly version?: string;
  /** `.Release.Name`: at most 53 characters, a DNS label. @default the construct's id */
  readonly releaseName?: string;
  /** `.Release.Namespace`, and the namespace of the chart's namespaced objects that set none. @default none */
  readonly namespace?: string;
  /** Values (JSON data), applied after `valuesFiles`: overlay values go here. @default {} */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Values files in the repository, relative to its root, applied in order before `values`. @default [] */
  readonly valuesFiles?: readonly string[];
  /** Apply the chart's `crds/` (in the CRD stage). @default true */
  readonly includeCrds?: boolean;
  /** Drop the chart's `helm.sh/hook: test` objects. @default true */
  readonly skipTests?: boolean;
  /** Extra `Capabilities.APIVersions` (`monitoring.coreos.com/v1`, `route.openshift.io/v1/Route`). @default [] */
  readonly apiVersions?: readonly string[];
  /**
   * Fields of the chart's objects that plan and drift ignore (`groundwork.io/ignore-differences`),
   * and that may differ between two renders (a `randAlphaNum` password the chart generates):
   * `{ kind: 'Secret', name: 'db', pointers: ['/data/password'] }`. @default []
   */
  readonly ignoreDifferences?: readonly ChartIgnoreRule[];
  /**
   * `Capabilities.KubeVersion`, e.g. `1.29.0`.
   * @default the Kubernetes version of the enclosing Platform's `openshiftVersion` (4.16 → 1.29.0)
   */
  readonly kubeVersion?: string;
}

/** Fields of one kind (and name) of a chart's objects to ignore. */
export interface ChartIgnoreRule {
  readonly kind: string;
  /** @default every object of the kind */
  readonly name?: string;
  /** JSON pointers, e.g. `/data/password`. */
  readonly pointers: readonly string[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const URL_REFUSED = {
  message: 'charts and values files from a URL are not supported (oci:// charts are)',
  params: {
    fix: 'name an HTTP chart with repo and chart, or vendor it (helm pull <chart> --version <v> --untar) and name its directory',
  },
};
const RELATIVE = {
  message: 'must be relative to the repository root',
  params: { fix: 'name it relative to the repository root, e.g. charts/ingress' },
};
const isUrl = (p: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(p);

/** A path inside the repository as a values file is named: relative, no URL, no `..` start. */
const repoPath = z
  .string()
  .min(1)
  .refine((p) => !isUrl(p), URL_REFUSED)
  .refine((p) => !p.startsWith('/'), RELATIVE);

/** A chart: a path of the repository, or an `oci://` reference (checked with its repo below). */
const chartRef = z
  .string()
  .min(1)
  .refine((p) => isOci(p) || !isUrl(p), URL_REFUSED)
  .refine((p) => !p.startsWith('/'), RELATIVE);

const jsonData = z.custom<Record<string, unknown>>(isJsonRecord, {
  message: 'must be JSON data (strings, numbers, booleans, null, arrays and plain objects)',
});

const propsSchema = z
  .strictObject({
    chart: chartRef,
    repo: z
      .string()
      .regex(
        /^(https?:\/\/[^\s@]+|oci:\/\/.*)$/i,
        'must be an http(s) URL without credentials, or an oci:// registry path (oci://ghcr.io/org/charts)',
      )
      .optional(),
    version: z.string().min(1).optional(),
    releaseName: z
      .string()
      .max(53)
      .regex(DNS_LABEL, 'must be a DNS label (lowercase letters, digits and -)')
      .optional(),
    namespace: z.string().max(63).regex(DNS_LABEL, 'must be a DNS label').optional(),
    values: jsonData.optional(),
    valuesFiles: z.array(repoPath).optional(),
    includeCrds: z.boolean().optional(),
    skipTests: z.boolean().optional(),
    apiVersions: z.array(z.string().regex(/^[a-zA-Z0-9.-]+(\/[a-zA-Z0-9.-]+){0,2}$/)).optional(),
    ignoreDifferences: z
      .array(
        z.strictObject({
          kind: z.string().min(1),
          name: z.string().min(1).optional(),
          pointers: z.array(z.string().startsWith('/', 'must be a JSON pointer, e.g. /data/password')).min(1),
        }),
      )
      .optional(),
    kubeVersion: z
      .string()
      .regex(/^v?\d+\.\d+(\.\d+)?$/, 'must look like 1.29 or 1.29.0')
      .optional(),
  })
  .refine(
    (p) =>
      (p.repo === undefined && !isOci(p.chart)) ||
      (p.version !== undefined && /^v?\d+\.\d+\.\d+([-+][\w.+-]*)?$/.test(p.version)),
    {
      message:
        'a chart from a repository needs an exact version (1.2.3), so that every synth renders the same chart',
      path: ['version'],
      params: { fix: 'set version to the exact release, then run groundwork chart lock' },
    },
  )
  .refine(
    (p) =>
      p.repo === undefined || isOci(p.repo) || isOci(p.chart) || /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p.chart),
    {
      message: 'with repo, chart is the chart name in that repository',
      path: ['chart'],
    },
  )
  .superRefine((p, ctx) => {
    if (!isOci(p.repo) && !isOci(p.chart)) return;
    if (isOci(p.repo) && isOci(p.chart)) {
      ctx.addIssue({
        code: 'custom',
        path: ['chart'],
        message: 'with an oci:// repo, chart is the chart name, not another oci:// reference',
        params: {
          fix: 'write either chart: oci://host/path/name, or repo: oci://host/path with chart: name',
        },
      });
      return;
    }
    if (p.repo !== undefined && !isOci(p.repo)) {
      ctx.addIssue({
        code: 'custom',
        path: ['chart'],
        message: 'an oci:// chart takes no http(s) repo',
        params: { fix: 'remove repo, or name the chart in it' },
      });
      return;
    }
    const ref = parseOciChart(p.repo !== undefined ? { repo: p.repo, chart: p.chart } : { chart: p.chart });
    if ('problem' in ref)
      ctx.addIssue({
        code: 'custom',
        path: [p.repo !== undefined && !ref.problem.startsWith('with an oci:// repo') ? 'repo' : 'chart'],
        message: ref.problem,
        params: { fix: ref.fix },
      });
  });

/**
 * A Helm chart from a directory of the repository, an HTTP chart repository or an OCI registry,
 * rendered at synth by the real `helm template` (outside the platform-code sandbox: platform code
 * only records what to render). Its objects join the platform's like any construct's, with this
 * construct's path: hooks are placed in earlier or later stages, `helm.sh/resource-policy: keep`
 * is `prune: keep`, `crds/` goes to the CRD stage. A remote chart renders only as
 * `groundwork-charts.lock.yaml` pins it (an OCI chart by manifest digest).
 * Bad props are validation issues on this construct; a chart that fails to render fails synth
 * naming this construct, the chart and helm's template file and line.
 *
 * @example
 * new HelmChart(platform, 'ingress', {
 *   chart: 'charts/ingress-nginx',
 *   namespace: 'ingress',
 *   values: { controller: { replicaCount: values.ingress.replicas } },
 * });
 * new HelmChart(platform, 'podinfo', { chart: 'oci://ghcr.io/stefanprodan/charts/podinfo', version: '6.7.1' });
 */
export class HelmChart extends Construct {
  /** `.Release.Name` the chart is rendered with. */
  readonly releaseName: string;

  constructor(scope: Construct, id: string, props: HelmChartProps, defaults: HelmDefaults = {}) {
    super(scope, id);
    this.releaseName = props.releaseName ?? defaults.releaseName ?? id;
    const parsed = validateProps(this, propsSchema, props);
    if (!parsed) return;
    const kubeVersion = parsed.kubeVersion ?? defaultKubeVersion(this);
    // An OCI chart is recorded as its parent repository and name, however it was spelled, so
    // both spellings share one lock entry.
    const oci = isOci(parsed.chart) || isOci(parsed.repo) ? parseOciChart(parsed) : undefined;
    const source =
      oci && !('problem' in oci)
        ? { chart: oci.name, repo: oci.repo }
        : { chart: parsed.chart, ...(parsed.repo ? { repo: parsed.repo } : {}) };
    const request: HelmRequest = {
      engine: 'helm',
      path: this.node.path,
      ...source,
      ...(parsed.version ? { version: parsed.version } : {}),
      releaseName: this.releaseName,
      ...(parsed.namespace ? { namespace: parsed.namespace } : {}),
      values: parsed.values ?? {},
      valuesFiles: parsed.valuesFiles ?? [],
      includeCrds: parsed.includeCrds ?? defaults.includeCrds ?? true,
      includeTests: !(parsed.skipTests ?? defaults.skipTests ?? true),
      apiVersions: parsed.apiVersions ?? [],
      ignoreDifferences: parsed.ignoreDifferences ?? [],
      ...(kubeVersion ? { kubeVersion: kubeVersion.startsWith('v') ? kubeVersion : `v${kubeVersion}` } : {}),
    };
    if (
      props.releaseName === undefined &&
      !(DNS_LABEL.test(this.releaseName) && this.releaseName.length <= 53)
    ) {
      Validation.error(
        this,
        'releaseName',
        `the construct id ${JSON.stringify(this.releaseName)} is no release name (a DNS label of at most 53 characters)`,
        'set releaseName, e.g. releaseName: "ingress"',
      );
      return;
    }
    recordRender(this, request);
  }
}

/** Defaults a subclass sets differently (cdk8s's `Helm` renders as plain `helm template` does). */
export interface HelmDefaults {
  readonly releaseName?: string;
  readonly includeCrds?: boolean;
  readonly skipTests?: boolean;
}

/** Plain JSON data, `undefined` members of objects allowed (JSON drops them), nothing else. */
function isJsonRecord(v: unknown): v is Record<string, unknown> {
  return isPlain(v) && Object.values(v).every(isJson);
}

function isJson(v: unknown, depth = 0): boolean {
  if (depth > 100) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  return isPlain(v) && Object.values(v).every((x) => x === undefined || isJson(x, depth + 1));
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
