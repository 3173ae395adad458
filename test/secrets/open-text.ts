import type { AgeIdentities } from '../../src/secrets/age-identities.js';
import { openSops, type OpenedLeaf } from '../../src/secrets/open-sops.js';
import { sealSops } from '../../src/secrets/seal-sops.js';

/**
 * A SOPS file's text decrypted into its plaintext tree, the way the two domains do it one after
 * the other: `sealSops` (render side: YAML parsed) then `openSops` (trusted side: data verified).
 * For tests that compare a whole tree with what sops writes.
 */
export async function openText(
  text: string,
  opts: { file: string; identities: AgeIdentities },
): Promise<Record<string, unknown>> {
  return treeOf(await openSops(sealSops(text, opts.file).sealed, opts));
}

/** Leaves back into a tree: string segments are map keys, numbers sequence indices. */
export function treeOf(leaves: readonly OpenedLeaf[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { path, value } of leaves) {
    let node: Record<string | number, unknown> = root;
    path.forEach((seg, i) => {
      if (i === path.length - 1) node[seg] = value;
      else
        node = (node[seg] ??= typeof path[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
    });
  }
  return root;
}
