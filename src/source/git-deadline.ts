import type { HttpClient } from 'isomorphic-git';
import { FetchTimeoutError } from './source-errors.js';

/** How long one git operation with a remote (a fetch, a ref listing, a push) may take. @default 120 s */
export const GIT_TIMEOUT_MS = 120_000;

/**
 * Runs `op`, whose requests go through the `http` it is handed, bounded by `timeoutMs`. Past it,
 * every request of `op` is aborted through its `signal` (the socket closed, an SSH session cut, a
 * response body that trickles ended) and the call rejects with `FetchTimeoutError` naming `url`,
 * whatever `op` waits on: a server that accepts the request and never answers cannot hold the
 * caller, nor the callers queued behind it. `op`'s own failure is rejected as it is (the caller maps
 * it); its late failure after the timeout is dropped. Does not retry.
 *
 * @example
 * const head = await withGitDeadline({ http: remote.http, url: remote.url, timeoutMs: 30_000 }, (http) =>
 *   fetchRemoteBranch({ ...from, http }, 'main'));
 */
export async function withGitDeadline<T>(
  remote: { readonly http: HttpClient; readonly url: string; readonly timeoutMs?: number | undefined },
  op: (http: HttpClient) => Promise<T>,
): Promise<T> {
  const timeoutMs = remote.timeoutMs ?? GIT_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the abort, so the race settles on the timeout, not on an abort's network error.
      reject(new FetchTimeoutError(remote.url, timeoutMs));
      controller.abort();
    }, timeoutMs);
  });
  const http: HttpClient = {
    request: (req) => remote.http.request({ ...req, signal: controller.signal }),
  };
  const running = op(http);
  running.catch(() => {}); // when the timeout wins, the aborted operation's rejection is expected
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
