import type { SourceRef } from '../source/fetch-revision.js';

/** The flags that name a repository and what of it to sync (agent and bootstrap). */
export interface SourceFlags {
  repo: string;
  branch?: string;
  tag?: string;
  commit?: string;
  path?: string;
}

/** `--commit` (searched on `--branch` when given), else `--tag`, else `--branch` (default `main`). */
export function sourceRefOf(flags: { branch?: string; tag?: string; commit?: string }): SourceRef {
  if (flags.commit) return { commit: flags.commit, ...(flags.branch ? { branch: flags.branch } : {}) };
  if (flags.tag) return { tag: flags.tag };
  return { branch: flags.branch ?? 'main' };
}
