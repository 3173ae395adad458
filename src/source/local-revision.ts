import fs from 'node:fs';
import git from 'isomorphic-git';

/**
 * The revision string of a local work tree, in the frozen format `<branch>@sha1:<hex>`
 * (`HEAD@sha1:<hex>` when detached), or `local` outside a git repository. Uncommitted changes
 * are not detected; the CLI applies the files as they are.
 */
export async function describeWorkTree(dir: string): Promise<string> {
  try {
    const root = await git.findRoot({ fs, filepath: dir });
    const oid = await git.resolveRef({ fs, dir: root, ref: 'HEAD' });
    const branch = await git.currentBranch({ fs, dir: root, fullname: false });
    return `${branch ?? 'HEAD'}@sha1:${oid}`;
  } catch {
    return 'local';
  }
}
