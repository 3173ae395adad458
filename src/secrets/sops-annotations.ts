/**
 * The annotations a `SopsSecret` travels with from synth to the decryption step. Frozen names.
 * `sopsFile` stays on the applied Secret (where its values come from); `sopsCiphertext` carries
 * the encrypted file and is removed when the values are decrypted, so it never reaches the cluster.
 */
export const SOPS_ANNOTATIONS = {
  /** The encrypted file's path in the repository, relative to the directory of groundwork.yaml. */
  sopsFile: 'groundwork.io/sops-file',
  /** The encrypted file's text, exactly as committed (the MAC covers the whole tree). */
  sopsCiphertext: 'groundwork.io/sops',
} as const;
