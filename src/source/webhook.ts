import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { InvalidWebhookPayloadError } from './source-errors.js';

/** Who sent the webhook: GitHub (`X-Hub-Signature-256`, `X-GitHub-Event`) or any other sender signing like it. */
export type WebhookProvider = 'github' | 'generic';

/** Why a webhook's signature was not accepted. */
type WebhookRejection = 'MissingSignature' | 'MalformedSignature' | 'SignatureMismatch';

type WebhookVerdict =
  | { readonly valid: true; readonly provider: WebhookProvider }
  | { readonly valid: false; readonly reason: WebhookRejection };

/** Header names are matched case-insensitively, as HTTP wants. */
type WebhookHeaders = IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>>;

const GITHUB_SIGNATURE_HEADER = 'x-hub-signature-256';
const GENERIC_SIGNATURE_HEADER = 'x-groundwork-signature';

/**
 * Checks a webhook's signature: `sha256=<hex>`, the HMAC-SHA256 of the raw body keyed with the
 * shared secret, in `X-Hub-Signature-256` (GitHub) or `X-Groundwork-Signature` (any other sender).
 * The comparison is constant-time. Does not parse the body and does not protect against replays
 * (a replayed push only triggers a fetch that finds nothing new).
 *
 * @example
 * verifyWebhook({ headers: req.headers, body, secret }) // { valid: true, provider: 'github' }
 */
export function verifyWebhook(opts: {
  readonly headers: WebhookHeaders;
  readonly body: Buffer;
  readonly secret: string;
}): WebhookVerdict {
  const github = header(opts.headers, GITHUB_SIGNATURE_HEADER);
  const signature = github ?? header(opts.headers, GENERIC_SIGNATURE_HEADER);
  if (signature === undefined) return { valid: false, reason: 'MissingSignature' };
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match) return { valid: false, reason: 'MalformedSignature' };
  const expected = createHmac('sha256', opts.secret).update(opts.body).digest();
  const given = Buffer.from(match[1]!, 'hex');
  if (!timingSafeEqual(expected, given)) return { valid: false, reason: 'SignatureMismatch' };
  return { valid: true, provider: github !== undefined ? 'github' : 'generic' };
}

/** What a webhook asks for. `commit` is absent when the push deleted the ref. */
interface WebhookEvent {
  readonly provider: WebhookProvider;
  readonly event: 'push' | 'ping' | 'other';
  /** The pushed ref, as sent: `refs/heads/main`, `refs/tags/v1`. */
  readonly ref?: string;
  /** The commit the ref points to after the push. */
  readonly commit?: string;
}

const SHA = z.string().regex(/^[0-9a-f]{40}$/i, 'a 40-hex commit id');
const GitHubPush = z.object({ ref: z.string().min(1), after: SHA });
const GenericPush = z.object({ ref: z.string().min(1).optional(), commit: SHA.optional() });
const ZERO = '0'.repeat(40);

/**
 * Reads a (verified) webhook: GitHub's `X-GitHub-Event` (`push` with `{ref, after}`, `ping`, any
 * other event is `other`; JSON or `application/x-www-form-urlencoded` with a `payload` field), or
 * the generic form, JSON `{ref?, commit?}` (an `X-Groundwork-Event: ping` header makes it a ping).
 * Throws `InvalidWebhookPayload` for a body that is not such JSON. Verify first: this trusts
 * nothing but does not check who sent it.
 */
export function parseWebhook(opts: {
  readonly headers: WebhookHeaders;
  readonly body: Buffer;
}): WebhookEvent {
  const githubEvent = header(opts.headers, 'x-github-event');
  if (githubEvent !== undefined) {
    if (githubEvent === 'ping') return { provider: 'github', event: 'ping' };
    if (githubEvent !== 'push') return { provider: 'github', event: 'other' };
    const push = validate('github', GitHubPush, readJson('github', opts.headers, opts.body));
    return {
      provider: 'github',
      event: 'push',
      ref: push.ref,
      ...(push.after !== ZERO && { commit: push.after }),
    };
  }
  if (header(opts.headers, 'x-groundwork-event') === 'ping') return { provider: 'generic', event: 'ping' };
  const push = validate('generic', GenericPush, readJson('generic', opts.headers, opts.body));
  return {
    provider: 'generic',
    event: 'push',
    ...(push.ref && { ref: push.ref }),
    ...(push.commit && push.commit !== ZERO && { commit: push.commit }),
  };
}

function readJson(provider: WebhookProvider, headers: WebhookHeaders, body: Buffer): unknown {
  let text = body.toString('utf8');
  if (header(headers, 'content-type')?.startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new InvalidWebhookPayloadError(provider, 'form body without a payload field');
    text = payload;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidWebhookPayloadError(provider, 'body is not JSON');
  }
}

function validate<T>(provider: WebhookProvider, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  throw new InvalidWebhookPayloadError(provider, problems.join('; '));
}

/** One header's value, case-insensitively; the first when repeated. */
function header(headers: WebhookHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

interface WebhookHandlerOptions {
  /** The shared secret configured at the sender. Must not be empty. */
  readonly secret: string;
  /** Called for every verified push; should only schedule a fetch (the response does not wait for it). */
  readonly onPush: (push: {
    ref?: string;
    commit?: string;
    provider: WebhookProvider;
  }) => void | Promise<void>;
  /** Told about a rejected request or a failed `onPush`, for logs. Never given the secret or the body. */
  readonly onError?: (err: unknown) => void;
  /** Largest body accepted, in bytes. @default 1 MiB */
  readonly maxBodyBytes?: number;
}

/**
 * A node:http request handler for push webhooks: reads the raw body (413 past `maxBodyBytes`),
 * verifies its signature (401 when missing or wrong), parses it (400 when garbage) and answers
 * 202 after handing a push to `onPush`, 200 to a ping or any other event, 405 to anything but POST.
 * Mount it on any path of any server; it reads nothing but the method, the headers and the body.
 *
 * @example
 * http.createServer(webhookHandler({ secret, onPush: () => agent.pollNow() })).listen(9292);
 */
export function webhookHandler(
  opts: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  if (!opts.secret) throw new RangeError('webhookHandler needs a non-empty secret');
  const limit = opts.maxBodyBytes ?? 1024 * 1024;
  const answer = (res: ServerResponse, status: number, message: string): void => {
    res
      .writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' })
      .end(`${message}\n`);
  };
  return (req, res) => {
    if (req.method !== 'POST') return answer(res, 405, 'POST a webhook here');
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        if (!tooLarge) answer(res, 413, `body larger than ${limit} bytes`);
        tooLarge = true;
        chunks.length = 0;
        req.resume();
      } else chunks.push(chunk);
    });
    req.on('error', (err) => opts.onError?.(err));
    req.on('end', () => {
      if (tooLarge) return;
      const body = Buffer.concat(chunks);
      const verdict = verifyWebhook({ headers: req.headers, body, secret: opts.secret });
      if (!verdict.valid) {
        opts.onError?.(new Error(`webhook rejected: ${verdict.reason}`));
        return answer(res, 401, `signature rejected: ${verdict.reason}`);
      }
      let parsed: WebhookEvent;
      try {
        parsed = parseWebhook({ headers: req.headers, body });
      } catch (err) {
        opts.onError?.(err);
        return answer(res, 400, err instanceof Error ? err.message : 'invalid payload');
      }
      if (parsed.event !== 'push') return answer(res, 200, parsed.event === 'ping' ? 'pong' : 'ignored');
      const push = {
        provider: parsed.provider,
        ...(parsed.ref && { ref: parsed.ref }),
        ...(parsed.commit && { commit: parsed.commit }),
      };
      try {
        void Promise.resolve(opts.onPush(push)).catch((err: unknown) => opts.onError?.(err));
      } catch (err) {
        opts.onError?.(err);
        return answer(res, 500, 'push not accepted');
      }
      answer(res, 202, 'accepted');
    });
  };
}
