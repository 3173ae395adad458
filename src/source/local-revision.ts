import fs from 'node:fs';
import { relative } from 'node:path';
import git from 'isomorphic-git';
import { revisionString } from '../core/revision.js';

/**
 * The revision string of a local work tree, in the frozen format `<branch>@sha1:<hex>`
 * (`HEAD@sha1:<hex>` when detached), or `local` outside a git repository. When files under `dir`
 * differ from HEAD (modified, staged, deleted or untracked and not ignored) the string ends in
 * `+dirty`, as `git describe --dirty` does: the CLI applies the files as they are, and the label
 * must not claim a commit that does not hold them.
 */
export async function describeWorkTree(dir: string): Promise<string> {
  let root: string;
  try {
    root = await git.findRoot({ fs, filepath: dir });
  } catch {
    return 'local';
  }
  try {
    const oid = await git.resolveRef({ fs, dir: root, ref: 'HEAD' });
    const branch = await git.currentBranch({ fs, dir: root, fullname: false });
    return revisionString({ ref: branch ?? 'HEAD', commit: oid, dirty: await isDirty(root, dir) });
  } catch {
    return 'local';
  }
}

/** True when any file under `dir` is not as HEAD has it (isomorphic-git status matrix; ignored files skipped). */
async function isDirty(root: string, dir: string): Promise<boolean> {
  const under = relative(root, dir);
  const rows = await git.statusMatrix({
    fs,
    dir: root,
    ...(under ? { filepaths: [under] } : {}),
    filter: (f) => !f.split('/').includes('node_modules'),
  });
  // [filepath, HEAD, workdir, stage]: 1,1,1 is unmodified.
  return rows.some(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1));
}
