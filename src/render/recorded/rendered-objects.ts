// What a rendered chart's objects become in Groundwork's terms: pure.
import jsyaml from 'js-yaml';
import { ANNOTATIONS } from '../../core/annotations.js';
import { loadManifestYaml, ManifestYamlError } from '../../core/manifest-yaml.js';
import { isPlainObject, type K8sObject } from '../../core/object.js';
import { clusterScopedCrdKinds, isClusterScoped } from './cluster-scoped.js';

/** One object of `helm template`'s or `kustomize build`'s output, with the template it came from. */
export interface RenderedObject {
  object: K8sObject;
  /** helm's `# Source:` (`ingress-nginx/templates/controller-deployment.yaml`), when given. */
  template?: string;
}

/** A document of the output that is no Kubernetes object: named by its template and position. */
export interface RenderedDocumentProblem {
  template?: string;
  document: number;
  message: string;
}

/**
 * Splits multi-document YAML output into objects, read as kubectl and helm install read them
 * (`loadManifestYaml`: YAML 1.1, so `defaultMode: 0444` is 292 and `enabled: yes` is true). Each
 * document's `# Source: <file>` comment (helm writes one per template) names its template; empty
 * documents are skipped and `List`s flattened. A document that does not parse or is not an object
 * with string apiVersion, kind and metadata.name is a problem; one that holds a key twice is a
 * warning (the last value is used, as kubectl uses it). The text is never quoted. Pure.
 */
export function parseRendered(text: string): {
  objects: RenderedObject[];
  problems: RenderedDocumentProblem[];
  warnings: RenderedDocumentProblem[];
} {
  const objects: RenderedObject[] = [];
  const problems: RenderedDocumentProblem[] = [];
  const warnings: RenderedDocumentProblem[] = [];
  const chunks = text.split(/^---[ \t]*(?:#.*)?$/m);
  chunks.forEach((chunk, i) => {
    const template = /^# Source: (.+)$/m.exec(chunk)?.[1]?.trim();
    const at = { document: i + 1, ...(template ? { template } : {}) };
    let docs: unknown[];
    try {
      const read = loadManifestYaml(chunk);
      docs = read.documents;
      if (read.duplicateKey)
        warnings.push({
          ...at,
          message: `holds a key twice (line ${read.duplicateKey.line} of the document): the last value is used, as kubectl and helm use it`,
        });
    } catch (err) {
      problems.push({ ...at, message: notYaml(err) });
      return;
    }
    for (const doc of docs) {
      if (doc === null || doc === undefined) continue;
      const items = isPlainObject(doc) && doc.kind === 'List' && Array.isArray(doc.items) ? doc.items : [doc];
      for (const item of items) {
        if (isObject(item)) objects.push({ object: item, ...(template ? { template } : {}) });
        else
          problems.push({
            ...at,
            message: 'is not a Kubernetes object (string apiVersion, kind and metadata.name)',
          });
      }
    }
  });
  return { objects, problems, warnings };
}

/** Why a document is refused, with its line when the reader knows it, never its text. */
function notYaml(err: unknown): string {
  if (err instanceof jsyaml.YAMLException) return `is not YAML (line ${err.mark.line + 1})`;
  if (err instanceof ManifestYamlError)
    return `${err.message}${err.line !== undefined ? ` (line ${err.line})` : ''}`;
  throw err;
}

function isObject(v: unknown): v is K8sObject {
  return (
    isPlainObject(v) &&
    typeof v.apiVersion === 'string' &&
    typeof v.kind === 'string' &&
    isPlainObject(v.metadata) &&
    typeof v.metadata.name === 'string' &&
    v.metadata.name !== '' &&
    (v.metadata.namespace === undefined || typeof v.metadata.namespace === 'string')
  );
}

const HOOK = 'helm.sh/hook';
const HOOK_WEIGHT = 'helm.sh/hook-weight';
const RESOURCE_POLICY = 'helm.sh/resource-policy';

/** How a chart's objects are placed: the release namespace, and whether test hooks stay. */
export interface PlacementOptions {
  /** Set on namespaced objects that name no namespace (helm install does so at apply time). */
  namespace?: string;
  /** Keep `helm.sh/hook: test` objects. @default false */
  includeTests?: boolean;
  /** Fields to ignore, written into `groundwork.io/ignore-differences` of the objects they match. @default [] */
  ignore?: readonly IgnoreRule[];
}

/** Fields of a kind (and name) to ignore: a chart's `ignoreDifferences`. */
export interface IgnoreRule {
  kind: string;
  name?: string;
  pointers: readonly string[];
}

/** The pointers of `rules` that apply to `obj`. Pure. */
export function ignoredPointers(
  obj: Pick<K8sObject, 'kind' | 'metadata'>,
  rules: readonly IgnoreRule[],
): string[] {
  return rules
    .filter((r) => r.kind === obj.kind && (r.name === undefined || r.name === obj.metadata.name))
    .flatMap((r) => r.pointers);
}

/**
 * Groundwork's reading of a chart's objects, as `helm install` would treat them where git is the
 * history (pure; objects are copied, never changed in place):
 * - the release namespace on namespaced objects without one (built-in cluster-scoped kinds and
 *   kinds of cluster-scoped CRDs in the same render are left alone);
 * - `helm.sh/hook` `pre-install`/`pre-upgrade`: the `namespaces` stage, before the chart's other
 *   objects; `post-install`/`post-upgrade`: the `operands` stage, after them; `test` hooks dropped
 *   unless `includeTests`; hooks only of delete or rollback dropped (Groundwork never deletes or
 *   rolls back a release). An explicit `groundwork.io/stage` wins; CRDs stay in the CRD stage;
 * - every pre/post hook but a CRD: `groundwork.io/hook-weight` from `helm.sh/hook-weight` (0 when
 *   absent or not an integer, as helm reads it), so apply writes it after its stage's other
 *   objects, in weight order, and waits for it (a Job until Complete); and
 *   `groundwork.io/on-immutable: recreate`, whatever `helm.sh/hook-delete-policy` says: a hook
 *   whose rendered content changes is re-created and runs again, as helm runs a new one on each
 *   upgrade. Hooks are never deleted after they ran (`hook-succeeded`, `hook-failed` are not acted
 *   on): a Job that succeeded stays, unchanged in the next plan, so it is neither run again on
 *   every cycle nor shown as drift; a failed one stays for its logs (an explicit annotation wins);
 * - `helm.sh/resource-policy: keep`: `groundwork.io/prune: keep`.
 * Returns the objects kept, in their order, and how many hooks were dropped.
 */
export function placeRendered(
  rendered: readonly RenderedObject[],
  opts: PlacementOptions,
): { objects: RenderedObject[]; droppedHooks: number } {
  const crdKinds = clusterScopedCrdKinds(rendered.map((r) => r.object));
  const objects: RenderedObject[] = [];
  let droppedHooks = 0;
  for (const r of rendered) {
    const annotations = { ...(r.object.metadata.annotations ?? {}) };
    const hooks = (annotations[HOOK] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const stage = hookStage(hooks, opts.includeTests ?? false);
    if (stage === 'drop') {
      droppedHooks++;
      continue;
    }
    const isCrd = r.object.kind === 'CustomResourceDefinition';
    if (stage && !isCrd && annotations[ANNOTATIONS.stage] === undefined)
      annotations[ANNOTATIONS.stage] = stage;
    if (stage && !isCrd) {
      // A hook: after its stage's other objects, by weight, each waited for (src/plan/hook-order.ts).
      annotations[ANNOTATIONS.hookWeight] ??= String(helmWeight(annotations[HOOK_WEIGHT]));
      // Every delete policy ends in a new hook object on the next run in helm (before-hook-creation
      // is its default); here a hook whose rendered content changes is re-created, and runs again.
      annotations[ANNOTATIONS.immutable] ??= 'recreate';
    }
    if (annotations[RESOURCE_POLICY] === 'keep') annotations[ANNOTATIONS.prune] = 'keep';
    const ignored = ignoredPointers(r.object, opts.ignore ?? []);
    if (ignored.length > 0)
      annotations[ANNOTATIONS.ignoreDifferences] = mergePointers(
        annotations[ANNOTATIONS.ignoreDifferences],
        ignored,
      );
    const metadata = { ...r.object.metadata };
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    if (opts.namespace && metadata.namespace === undefined && !isClusterScoped(r.object, crdKinds))
      metadata.namespace = opts.namespace;
    objects.push({ ...r, object: { ...r.object, metadata } });
  }
  return { objects, droppedHooks };
}

/** `helm.sh/hook-weight` as helm reads it: `strconv.Atoi`, 0 when absent or not an integer. */
function helmWeight(raw: string | undefined): number {
  return raw !== undefined && /^[-+]?\d{1,15}$/.test(raw) ? Number.parseInt(raw, 10) : 0;
}

/** An ignore-differences annotation with `more` pointers added (sorted, once each). */
function mergePointers(existing: string | undefined, more: readonly string[]): string {
  let current: unknown = [];
  try {
    current = JSON.parse(existing ?? '[]');
  } catch {
    // A chart's malformed annotation: replaced by the pointers asked for.
  }
  const strings = Array.isArray(current) ? current.filter((p): p is string => typeof p === 'string') : [];
  return JSON.stringify([...new Set([...strings, ...more])].sort());
}

/** The stage a hook goes to, `drop`, or undefined for an object that is no hook. */
function hookStage(
  hooks: readonly string[],
  includeTests: boolean,
): 'namespaces' | 'operands' | 'drop' | undefined {
  if (hooks.length === 0) return undefined;
  if (hooks.some((h) => h === 'test' || h === 'test-success' || h === 'test-failure'))
    return includeTests ? undefined : 'drop';
  if (hooks.some((h) => h === 'pre-install' || h === 'pre-upgrade')) return 'namespaces';
  if (hooks.some((h) => h === 'post-install' || h === 'post-upgrade')) return 'operands';
  return 'drop';
}
