// kustomize's error message, read so that it says nothing about files outside the kustomization.
import { relative } from 'node:path';
import { isWithin } from '../../core/confined-file.js';
import { oneLine } from '../helm/helm-args.js';

/** A render problem, as renderKustomize returns it. */
export interface KustomizeProblem {
  problem: string;
  fix: string;
  /** What kustomize warned of besides its error (`'commonLabels' is deprecated...`), each one line. */
  warnings?: string[];
}

/** The most warnings kept from one run. */
const MAX_WARNINGS = 5;

/**
 * The one message for a kustomization that names a path outside its kustomization roots (the
 * checkout's kustomization directories the walk reached): the same whether the path exists, is a
 * file, a directory or a dangling link, so an answer tells nothing about the machine's files.
 */
export function outsideRootProblem(dir: string): KustomizeProblem {
  return {
    problem: `kustomize build of ${dir} refused: a kustomization names a path outside its kustomization directory (whether it exists is not said)`,
    fix: 'keep every file a kustomization loads (resources, patches, generator files) in the repository, and data files in or below the kustomization directory: copy them there',
  };
}

/** kustomize's words for a file it could not load: each tells whether the path exists, and what it is. */
const LOADING =
  /no such file|evalsymlink|must resolve to a file|unable to find one of|not a valid directory|file is not directory|is a directory|not a directory|permission denied/i;

/** Absolute paths in a kustomize message: quoted (`'/a/b'`) or after `lstat`/`open`. */
const PATHS = /(?:^|[\s'"([])(\/[^\s'":,()[\]]+)/g;

/**
 * The problem of a failed `kustomize build` from its stderr (pure). kustomize writes its warnings
 * first (`# Warning: 'commonLabels' is deprecated...`) and its error last (`Error: ...`): the
 * problem is the error (the lines from the last `Error:` on, else the last line that is no
 * warning), without `Error:`, control characters and past 400 characters, and the warnings are
 * returned apart (at most 5). With `checkout`, paths inside it are written relative to it.
 *
 * But `outsideRootProblem` when the message is kustomize's load restriction (`security; file ...
 * is not in or below ...`), or a failure to load a file (`LOADING`) that names an absolute path
 * outside every root in `roots` (real paths of the kustomizations reached): kustomize answers
 * `security; file` for a file that exists there and `no such file` or `must resolve to a file`
 * for one that does not, an oracle of the machine's files.
 */
export function kustomizeFailure(
  stderr: string,
  ctx: { dir: string; roots: ReadonlySet<string> | readonly string[]; checkout?: string },
): KustomizeProblem {
  const roots = [...ctx.roots];
  const outside =
    /is not in or below/.test(stderr) ||
    (LOADING.test(stderr) &&
      [...stderr.matchAll(PATHS)].some((m) => !roots.some((root) => isWithin(root, m[1]!))));
  if (outside) return outsideRootProblem(ctx.dir);
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  const isWarning = (l: string) => /^#?\s*warning:/i.test(l.trim());
  const warnings = lines
    .filter(isWarning)
    .map((l) => oneLine(l.trim().replace(/^#?\s*warning:\s*/i, '')))
    .slice(0, MAX_WARNINGS);
  const errorAt = lines.findLastIndex((l) => l.startsWith('Error:'));
  const errorLines =
    errorAt >= 0
      ? lines.slice(errorAt).filter((l) => !isWarning(l))
      : lines.filter((l) => !isWarning(l)).slice(-1);
  const error = errorLines.join(' ').replace(/^Error:\s*/, '') || 'kustomize failed without a message';
  return {
    problem: `kustomize build failed: ${oneLine(ctx.checkout ? relativeTo(ctx.checkout, error) : error)}`,
    fix: 'fix the kustomization named above (kustomize build shows the same error)',
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** `text` with each absolute path inside `checkout` written relative to it (`.` for itself). */
function relativeTo(checkout: string, text: string): string {
  return text.replace(PATHS, (whole, path: string) =>
    isWithin(checkout, path) ? whole.replace(path, relative(checkout, path) || '.') : whole,
  );
}
