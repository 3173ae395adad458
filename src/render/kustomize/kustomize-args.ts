// The one builder of kustomize's command line.
import { isAbsolute, resolve } from 'node:path';
import { isWithin } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';

/**
 * `kustomize build -- <dir>`: the kustomization directory (a real path, checked inside the
 * checkout `root`) after `--`, so no value can become a flag, and no flag at all: kustomize keeps
 * its defaults that refuse the rest (`LoadRestrictionsRootOnly`, no plugins, no helm inflation).
 * Pure; throws `UnsafeToolArgument` for a directory outside the checkout, or not an
 * absolute, normalized path.
 */
export function kustomizeBuildArgs(dir: string, root: string): string[] {
  if (!isAbsolute(dir) || dir !== resolve(dir) || dir.includes('\n') || !isWithin(root, dir))
    throw new GroundworkError({
      code: 'UnsafeToolArgument',
      subject: 'kustomize build',
      message: 'the kustomization directory is not inside the checkout: kustomize was not run',
      fix: 'name a directory of the repository, relative to its root',
    });
  return ['build', '--', dir];
}
