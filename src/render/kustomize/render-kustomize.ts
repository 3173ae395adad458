import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { confinedRealPath } from '../../core/confined-file.js';
import { loadManifestYaml } from '../../core/manifest-yaml.js';
import { GroundworkError } from '../../core/errors.js';
import type { KustomizeRequest } from '../recorded/render-request.js';
import type { RenderLimits, RenderOutcome } from '../recorded/render-outcome.js';
import { kustomizeBuildArgs } from './kustomize-args.js';
import { kustomizeFailure } from './kustomize-failure.js';
import { limitProblem, missingOr } from '../helm/render-helm.js';
import { binaryIdentity, cachedRender, directoryDigest, renderKey } from '../recorded/render-cache.js';
import { runTool } from '../recorded/run-tool.js';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/**
 * The fields of a kustomization that name other kustomizations or files to load. `generators`,
 * `transformers` and `validators` may name kustomization directories too (whose output configures
 * them), so they are confined like `resources`.
 */
const REFERENCE_FIELDS = [
  'resources',
  'bases',
  'components',
  'crds',
  'generators',
  'transformers',
  'validators',
] as const;

/**
 * Renders a Kustomize directory with `kustomize build` (`runTool`: no credentials, no network
 * where the kernel allows). Before kustomize runs, the graph of kustomizations is walked from
 * `request.dir`: every local entry of `resources`, `bases`, `components` and `crds` must resolve
 * inside the checkout (real paths), and a remote one (a URL, `github.com/...`, a `?ref=`) is
 * refused, as Flux's `--no-remote-bases`. kustomize itself keeps its defaults that refuse the rest:
 * files only under each kustomization's root (`LoadRestrictionsRootOnly`), no exec or container
 * plugins, no helm inflation (neither `--enable-alpha-plugins` nor `--enable-helm` is passed).
 *
 * With `ctx.cacheDir`, the output is looked up by `kustomizeCacheKey` (what kustomize could read,
 * the binary, the arguments) after the walk, so a refused graph is refused on a hit too; a hit
 * does not start kustomize (`cached: true`). The caller stores a render once it is accepted.
 * Kustomize is run once, not twice as helm is: with plugins and helm inflation off, kustomize
 * v5.8.2 reads nothing but those files (no clock, no random source, no environment: since v5 an
 * env file line without `=` is an empty value, not the variable's), so two runs cannot differ.
 */
export async function renderKustomize(
  request: KustomizeRequest,
  ctx: { dir: string; kustomize: string; limits: RenderLimits; cacheDir?: string },
): Promise<RenderOutcome> {
  let dir: string;
  try {
    dir = await confinedRealPath({ root: ctx.dir, path: request.dir });
  } catch (err) {
    return { ok: false, field: 'dir', problem: missingOr(err, `directory ${request.dir} does not exist`) };
  }
  const roots = new Set<string>();
  const walked = await walkKustomizations(dir, ctx.dir, roots);
  if (walked) return { ok: false, field: 'dir', ...walked };
  const cacheKey = ctx.cacheDir ? await kustomizeCacheKey(ctx.dir, dir, roots, ctx.kustomize) : undefined;
  if (ctx.cacheDir && cacheKey) {
    const text = await cachedRender(ctx.cacheDir, cacheKey);
    if (text !== undefined) return { ok: true, text, cacheKey, cached: true };
  }
  const outcome = await runTool({
    binary: ctx.kustomize,
    args: kustomizeBuildArgs(dir, ctx.dir),
    cwd: dir,
    timeoutMs: ctx.limits.timeoutMs,
    outputCapBytes: ctx.limits.outputCapBytes,
  });
  if (outcome.ok) return { ok: true, text: outcome.stdout, ...(cacheKey ? { cacheKey } : {}) };
  if (outcome.reason !== 'exit')
    return { ok: false, field: 'dir', problem: limitProblem(outcome.reason, 'kustomize build', ctx.limits) };
  // Scrubbed: what kustomize says of a path outside the kustomizations must not tell whether it exists.
  return {
    ok: false,
    field: 'dir',
    ...kustomizeFailure(outcome.stderr, { dir: request.dir, roots, checkout: ctx.dir }),
  };
}

/**
 * The render cache key of a kustomization: every file kustomize could read for it (each
 * kustomization root the walk reached, its whole directory, by content: kustomize's default
 * `LoadRestrictionsRootOnly` keeps file loads under those roots; a symbolic link by its target's
 * content, confined to the checkout), their paths relative to the checkout, the binary's identity
 * and the arguments. Undefined (render, do not cache) when a root holds more than 64 MiB or a link
 * that is not a file inside the checkout. The checkout's own path is not part of it: the output of
 * `kustomize build` does not depend on it, so another checkout of the same files hits.
 */
async function kustomizeCacheKey(
  checkout: string,
  dir: string,
  roots: ReadonlySet<string>,
  kustomize: string,
): Promise<string | undefined> {
  const digests: [string, string][] = [];
  for (const root of [...roots].sort()) {
    const digest = await directoryDigest(root, { links: { within: checkout } });
    if (!digest) return undefined;
    digests.push([relative(checkout, root) || '.', digest]);
  }
  return renderKey({
    engine: 'kustomize',
    args: ['build', relative(checkout, dir) || '.'],
    roots: digests,
    binary: await binaryIdentity(kustomize),
  });
}

/** Whether a kustomization entry names a remote base (Kustomize's remote target syntaxes). */
export function isRemoteReference(entry: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ||
    /^git@/.test(entry) ||
    /^(github\.com|gitlab\.com|bitbucket\.org|dev\.azure\.com)[/:]/i.test(entry) ||
    /[?&]ref=/.test(entry) ||
    /\.git(\/\/|$|\?)/.test(entry)
  );
}

/**
 * The first problem of the kustomization graph from `dir` (a real path in the checkout): a remote
 * entry, an entry outside the checkout (`confinedRealPath`: alike whether its target exists), a
 * kustomization that is not YAML. Undefined when none.
 */
async function walkKustomizations(
  dir: string,
  root: string,
  seen: Set<string>,
): Promise<{ problem: string; fix?: string } | undefined> {
  if (seen.has(dir)) return undefined;
  seen.add(dir);
  const name = relative(root, dir) || '.';
  let file: string | undefined;
  for (const f of KUSTOMIZATION_FILES)
    if ((await stat(join(dir, f)).catch(() => undefined))?.isFile()) {
      file = f;
      break;
    }
  if (!file)
    return {
      problem: `${name} holds no kustomization.yaml`,
      fix: 'name a directory with a kustomization.yaml',
    };
  let doc: unknown;
  try {
    // As kustomize reads it (sigs.k8s.io/yaml: YAML 1.1).
    doc = loadManifestYaml(await readFile(join(dir, file), 'utf8')).documents[0];
  } catch {
    return {
      problem: `${name}/${file} is not YAML`,
      fix: 'fix the kustomization (kustomize build shows where)',
    };
  }
  const fields = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  for (const field of REFERENCE_FIELDS) {
    const entries = Array.isArray(fields[field]) ? (fields[field] as unknown[]) : [];
    for (const entry of entries) {
      // generators, transformers and validators may hold a config inline (YAML text), not a path.
      if (typeof entry !== 'string' || entry.includes('\n')) continue;
      if (isRemoteReference(entry))
        return {
          problem: `${name}/${file} ${field} names a remote base; Groundwork renders only what the repository holds`,
          fix: 'vendor the base into the repository (kustomize localize, or copy it) and name its directory',
        };
      let real: string;
      try {
        real = await confinedRealPath({ root, path: join(relative(root, dir), entry) });
      } catch (err) {
        if (err instanceof GroundworkError)
          return {
            problem: `${name}/${file} ${field}: ${err.message}`,
            ...(err.fix ? { fix: err.fix } : {}),
          };
        // A missing entry is kustomize's to report, with its own words.
        continue;
      }
      if ((await stat(real)).isDirectory()) {
        const inner = await walkKustomizations(real, root, seen);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}
