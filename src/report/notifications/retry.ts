/** How a delivery is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default 6 */
  readonly attempts: number;
  /** The wait before the second attempt; each later one doubles it. @default 1000 */
  readonly baseMs: number;
  /** No wait is longer (a Retry-After too). @default 60_000 */
  readonly maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 1000, maxMs: 60_000 };

/** The outcome of one attempt, as the transport saw it. */
export type AttemptOutcome =
  | { readonly type: 'response'; readonly status: number; readonly retryAfterMs?: number }
  | { readonly type: 'error'; readonly message: string };

/**
 * What to do after attempt number `attempt` (1 for the first): done, give up, or wait and try
 * again. Pure. Retried: network errors and timeouts, 408, 429 and 5xx; given up: every other
 * 4xx (the request is wrong or the token refused: another try changes nothing), and any failure
 * once `policy.attempts` have been made. The wait doubles from `baseMs` up to `maxMs`, a half of
 * it random (`random` in [0, 1)) so that agents that failed together do not retry together; a
 * server's Retry-After is honoured up to `maxMs` (GitHub and GitLab rate limits say when to
 * come back: Flux's notification-controller#977 was rate-limited by GitHub).
 */
export function nextStep(
  outcome: AttemptOutcome,
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY,
  random = 0.5,
): { type: 'done' } | { type: 'give-up'; why: string } | { type: 'retry'; afterMs: number; why: string } {
  if (outcome.type === 'response' && outcome.status >= 200 && outcome.status < 300) return { type: 'done' };
  const why = outcome.type === 'error' ? outcome.message : `HTTP ${outcome.status}`;
  const retryable =
    outcome.type === 'error' || outcome.status === 408 || outcome.status === 429 || outcome.status >= 500;
  if (!retryable) return { type: 'give-up', why };
  if (attempt >= policy.attempts) return { type: 'give-up', why: `${why} (after ${attempt} attempts)` };
  const doubled = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  const jittered = Math.round(doubled / 2 + (doubled / 2) * random);
  const asked = outcome.type === 'response' ? outcome.retryAfterMs : undefined;
  return { type: 'retry', afterMs: Math.min(policy.maxMs, Math.max(jittered, asked ?? 0)), why };
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
