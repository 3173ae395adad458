/**
 * Process exit codes, part of the CLI contract. Every command follows `diff(1)`:
 * 0 success and nothing to change, 1 changes or drift found (`plan`, `drift`),
 * 2 any error (bad input, validation, cluster or git failure).
 */
export const ExitCode = {
  Ok: 0,
  Changes: 1,
  Error: 2,
} as const;
