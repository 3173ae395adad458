/** Who asks for a revision to be verified; the first that does is reported. */
export type VerificationSource = 'agent' | 'applied' | 'candidate';

/**
 * Whether the revision just fetched must carry a trusted signature. Pure.
 *
 * - `agent`: the agent runs with `--verify-commits` (set at bootstrap, outside the repository):
 *   the floor, which nothing in git can lower.
 * - `applied`: the revision now applied asked for it (`verify: true` on this overlay's
 *   environment in its groundwork.yaml). A new commit that drops `verify:` is still checked,
 *   because it is the commit under suspicion: git can raise the policy, never lower it.
 * - `candidate`: the fetched revision itself asks for it.
 *
 * `applied` is known only while the agent runs (its last good revision); after a restart the
 * floor is `agent` alone, which is why `--verify-commits` is the control that holds.
 */
export function verificationRequired(asks: {
  readonly agent: boolean;
  readonly applied: boolean;
  readonly candidate: boolean;
}): { readonly required: boolean; readonly by?: VerificationSource } {
  const by = (['agent', 'applied', 'candidate'] as const).find((k) => asks[k]);
  return by ? { required: true, by } : { required: false };
}
