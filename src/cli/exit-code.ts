/**
 * Process exit codes, part of the CLI contract. Every command follows `diff(1)`:
 * 0 success and nothing to change, 1 changes or drift found (`plan`, `drift`),
 * 2 any error (bad input, validation, cluster or git failure); 3 `apply --prune` applied everything
 * but a prune guard refused to prune (nothing was deleted; the refusal is printed), or kept a
 * candidate back because deleting it would delete what git keeps (`CrdInUse`, `NamespaceInUse`).
 */
export const ExitCode = {
  Ok: 0,
  Changes: 1,
  Error: 2,
  PruneRefused: 3,
} as const;
