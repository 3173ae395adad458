import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import jsyaml from 'js-yaml';
import { confinedRealPath } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';
import type { KustomizeRequest } from './render-request.js';
import type { RenderLimits, RenderOutcome } from './render-outcome.js';
import { oneLine } from './helm-args.js';
import { limitProblem, missingOr } from './render-helm.js';
import { runTool } from './run-tool.js';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
/** The fields of a kustomization that name other kustomizations or files to load. */
const REFERENCE_FIELDS = ['resources', 'bases', 'components', 'crds'] as const;

/**
 * Renders a Kustomize directory with `kustomize build` (`runTool`: no credentials, no network
 * where the kernel allows). Before kustomize runs, the graph of kustomizations is walked from
 * `request.dir`: every local entry of `resources`, `bases`, `components` and `crds` must resolve
 * inside the checkout (real paths), and a remote one (a URL, `github.com/...`, a `?ref=`) is
 * refused, as Flux's `--no-remote-bases`. kustomize itself keeps its defaults that refuse the rest:
 * files only under each kustomization's root (`LoadRestrictionsRootOnly`), no exec or container
 * plugins, no helm inflation (neither `--enable-alpha-plugins` nor `--enable-helm` is passed).
 */
export async function renderKustomize(
  request: KustomizeRequest,
  ctx: { dir: string; kustomize: string; limits: RenderLimits },
): Promise<RenderOutcome> {
  let dir: string;
  try {
    dir = await confinedRealPath({ root: ctx.dir, path: request.dir });
  } catch (err) {
    return { ok: false, field: 'dir', problem: missingOr(err, `directory ${request.dir} does not exist`) };
  }
  const walked = await walkKustomizations(dir, ctx.dir, new Set());
  if (walked) return { ok: false, field: 'dir', ...walked };
  const outcome = await runTool({
    binary: ctx.kustomize,
    args: ['build', dir],
    cwd: dir,
    timeoutMs: ctx.limits.timeoutMs,
    outputCapBytes: ctx.limits.outputCapBytes,
  });
  if (outcome.ok) return { ok: true, text: outcome.stdout };
  if (outcome.reason !== 'exit')
    return { ok: false, field: 'dir', problem: limitProblem(outcome.reason, 'kustomize build', ctx.limits) };
  const first =
    outcome.stderr.split('\n').find((l) => l.trim() !== '') ?? 'kustomize failed without a message';
  return {
    ok: false,
    field: 'dir',
    problem: `kustomize build failed: ${oneLine(first.replace(/^Error:\s*/, ''))}`,
    fix: 'fix the kustomization named above (kustomize build shows the same error)',
  };
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
 * entry, an entry outside the checkout, a kustomization that is not YAML. Undefined when none.
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
    doc = jsyaml.load(await readFile(join(dir, file), 'utf8'));
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
      if (typeof entry !== 'string') continue;
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
