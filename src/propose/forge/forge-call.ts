import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { checkedFetch } from '../../core/checked-fetch.js';
import { GroundworkError } from '../../core/errors.js';
import type { OutboundPolicy } from '../../core/outbound-url.js';
import {
  DEFAULT_RETRY,
  nextStep,
  retryAfterMs,
  type AttemptOutcome,
  type RetryPolicy,
} from '../../report/notifications/retry.js';
import { redact } from '../../source/credentials.js';

/** One forge API request, built purely by a forge client. Its headers hold the token: never logged. */
export interface ForgeRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** What the request does, for errors: `open pull request groundwork/propose/podinfo`. */
  readonly what: string;
}

/** How forge requests are bounded. */
export interface ForgeCallOptions {
  /** Whose token is in the headers: every message is scrubbed of it. */
  readonly token: string;
  /** @default `outboundPolicy()` */
  readonly policy?: OutboundPolicy;
  /** @default 6 attempts from 1 s, doubling up to 60 s (`DEFAULT_RETRY`) */
  readonly retry?: RetryPolicy;
  /** Per attempt, the answer read included. @default 30_000 */
  readonly timeoutMs?: number;
  /** The largest answer read. @default 1 MiB */
  readonly maxBytes?: number;
  /** @default `timers/promises` setTimeout (tests pass one that does not wait) */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/** What made an attempt fail, as `nextStep` reads it (a body problem is never retried). */
class AnswerProblem extends Error {}

/**
 * Sends `req` and returns its JSON answer parsed by `schema` (null for an empty body). The host is
 * checked and pinned by `checkedFetch`; a redirect is never followed (it could carry the token's
 * header elsewhere) and fails the call; each attempt has `timeoutMs`; the body is read up to
 * `maxBytes` and no further. Retried as commit statuses are (`nextStep`: network errors,
 * timeouts, 408, 429 and 5xx with backoff, Retry-After honoured); never retried: other 4xx, a
 * redirect, an oversized or wrong-shaped answer. Rejects with `ForgeRequestFailed` naming
 * `req.what` and the status, and at most 200 characters of the forge's own `message`, scrubbed of
 * the token and of control characters.
 */
export async function forgeCall<T>(
  req: ForgeRequest,
  schema: z.ZodType<T>,
  opts: ForgeCallOptions,
): Promise<T> {
  const policy = opts.retry ?? DEFAULT_RETRY;
  const wait = opts.sleep ?? sleep;
  const fail = (message: string, cause?: unknown) =>
    new GroundworkError({
      code: 'ForgeRequestFailed',
      subject: new URL(req.url).host,
      message: scrub(`${req.what}: ${message}`, opts.token),
      fix: 'check the token (pull requests and contents write), --forge and --forge-api; run again later for a rate limit',
      ...(cause ? { cause } : {}),
    });
  for (let attempt = 1; ; attempt++) {
    let outcome: AttemptOutcome;
    let text: string | undefined;
    try {
      const res = await checkedFetch(req.url, {
        method: req.method,
        headers: {
          ...req.headers,
          ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        ...(opts.policy ? { policy: opts.policy } : {}),
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined);
        throw fail(
          `answered a redirect (HTTP ${res.status}), which is not followed: the token stays with the forge's own API`,
        );
      }
      text = await boundedText(res, opts.maxBytes ?? 1024 * 1024);
      const after = retryAfterMs(res.headers.get('retry-after'), Date.now());
      outcome = {
        type: 'response',
        status: res.status,
        ...(after !== undefined ? { retryAfterMs: after } : {}),
      };
    } catch (err) {
      if (err instanceof GroundworkError) throw err; // refused address, redirect: not retried
      if (err instanceof AnswerProblem) throw fail(err.message);
      outcome = { type: 'error', message: err instanceof Error ? err.message : String(err) };
    }
    const step = nextStep(outcome, attempt, policy, Math.random());
    if (step.type === 'retry') {
      await wait(step.afterMs);
      continue;
    }
    if (step.type === 'give-up') throw fail(`${step.why}${forgeMessage(text)}`);
    return parseAnswer(text ?? '', schema, fail);
  }
}

function parseAnswer<T>(text: string, schema: z.ZodType<T>, fail: (m: string) => GroundworkError): T {
  let json: unknown = null;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw fail('the answer is not JSON');
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(
      `the answer does not have the documented shape (${issue?.path.join('.') || 'root'}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

/** The body as text, refused past `max` bytes (the rest is not read). */
async function boundedText(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new AnswerProblem(`the answer is larger than ${max} bytes`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerProblem(`the answer is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** ` (the forge says: …)` from an error answer's `message`, cut to 200 characters, or ''. */
function forgeMessage(text: string | undefined): string {
  if (!text) return '';
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' && m !== '' ? ` (the forge says: ${m.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}

/** `text` without the token (every spelling `redact` knows) and without control characters. */
function scrub(text: string, token: string): string {
  // eslint-disable-next-line no-control-regex
  return redact(text, { token }).replace(/[\u0000-\u001f\u007f]/g, ' ');
}
