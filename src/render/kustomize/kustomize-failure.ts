// kustomize's error message, read so that it says nothing about files outside the kustomization.
import { isWithin } from '../../core/confined-file.js';
import { oneLine } from '../helm/helm-args.js';

/** A render problem, as renderKustomize returns it. */
export interface KustomizeProblem {
  problem: string;
  fix: string;
}

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
 * The problem of a failed `kustomize build` from its stderr: its first line, without `Error:`,
 * control characters and past 400 characters; but `outsideRootProblem` when the message is
 * kustomize's load restriction (`security; file ... is not in or below ...`), or a failure to
 * load a file (`LOADING`) that names an absolute path outside every root in `roots` (real paths
 * of the kustomizations reached):
 * kustomize answers `security; file` for a file that exists there and `no such file` or `must
 * resolve to a file` for one that does not, an oracle of the machine's files. Pure.
 */
export function kustomizeFailure(
  stderr: string,
  ctx: { dir: string; roots: ReadonlySet<string> | readonly string[] },
): KustomizeProblem {
  const roots = [...ctx.roots];
  const outside =
    /is not in or below/.test(stderr) ||
    (LOADING.test(stderr) &&
      [...stderr.matchAll(PATHS)].some((m) => !roots.some((root) => isWithin(root, m[1]!))));
  if (outside) return outsideRootProblem(ctx.dir);
  const first = stderr.split('\n').find((l) => l.trim() !== '') ?? 'kustomize failed without a message';
  return {
    problem: `kustomize build failed: ${oneLine(first.replace(/^Error:\s*/, ''))}`,
    fix: 'fix the kustomization named above (kustomize build shows the same error)',
  };
}
