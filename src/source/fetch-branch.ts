import * as fs from 'node:fs';
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';

/** Where a branch is fetched from and into, and how a failure is told. */
export interface BranchFetch {
  /** The repository the branch is fetched into. */
  dir: string;
  http: HttpClient;
  url: string;
  /** A fresh object per call: isomorphic-git writes into the headers it is given. */
  headers: () => Record<string, string>;
  /** A git or HTTP failure on `remoteRef` as the error to throw (scrubbed of credentials). */
  failed: (err: unknown, remoteRef: string) => Error;
}

/**
 * Fetches `branch` (its history) into `refs/remotes/origin/<branch>` and returns its head, or
 * undefined when the remote has no such branch (asked first, so a missing branch is no error).
 */
export async function fetchRemoteBranch(from: BranchFetch, branch: string): Promise<string | undefined> {
  const remoteRef = `refs/heads/${branch}`;
  const refs = await git
    .listServerRefs({ http: from.http, url: from.url, prefix: remoteRef, headers: from.headers() })
    .catch((err: unknown) => {
      throw from.failed(err, remoteRef);
    });
  if (!refs.some((r) => r.ref === remoteRef)) return undefined;
  try {
    const r = await git.fetch({
      fs,
      http: from.http,
      dir: from.dir,
      url: from.url,
      ref: `refs/remotes/origin/${branch}`,
      remoteRef,
      singleBranch: true,
      tags: false,
      headers: from.headers(),
    });
    // `origin/<branch>` names it in this repository (a preview's base shows its branch).
    if (r.fetchHead)
      await git.writeRef({
        fs,
        dir: from.dir,
        ref: `refs/remotes/origin/${branch}`,
        value: r.fetchHead,
        force: true,
      });
    return r.fetchHead ?? undefined;
  } catch (err) {
    throw from.failed(err, remoteRef);
  }
}
