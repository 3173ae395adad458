import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GroundworkError } from '../../core/errors.js';

/**
 * Checks that `out` can be the directory synth writes into: it, or the nearest of its parents
 * that exists, is a directory. Creates nothing. Throws `InvalidFlag` naming the path (and the file
 * in the way) otherwise, rather than leaving the raw ENOTDIR/EEXIST of the first write.
 */
export async function checkOutputDir(out: string, flag = '--out'): Promise<void> {
  for (let path = out; ; path = dirname(path)) {
    const found = await stat(path).catch(() => undefined);
    if (found?.isDirectory()) return;
    if (found)
      throw new GroundworkError({
        code: 'InvalidFlag',
        subject: `${flag} ${out}`,
        message:
          path === out
            ? 'is a file, not a directory: synth writes one directory per overlay into it'
            : `${path} is a file, so no directory can be made under it`,
        fix: `pass a directory (it is created when missing), or print to stdout without ${flag}`,
      });
    if (dirname(path) === path) return;
  }
}
