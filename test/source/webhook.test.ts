import { createHmac } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseWebhook,
  verifyWebhook,
  webhookHandler,
  type WebhookProvider,
} from '../../src/source/webhook.js';

const SECRET = 'webhook-secret';
const SHA = 'a'.repeat(40);
const sign = (body: string | Buffer, secret = SECRET): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('verifyWebhook', () => {
  it("accepts GitHub's documented example", () => {
    // https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
    const verdict = verifyWebhook({
      headers: {
        'X-Hub-Signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
      },
      body: Buffer.from('Hello, World!'),
      secret: "It's a Secret to Everybody",
    });
    expect(verdict).toEqual({ valid: true, provider: 'github' });
  });

  it('accepts the generic header', () => {
    const body = Buffer.from('{"ref":"refs/heads/main"}');
    expect(
      verifyWebhook({ headers: { 'x-groundwork-signature': sign(body) }, body, secret: SECRET }),
    ).toEqual({
      valid: true,
      provider: 'generic',
    });
  });

  const rejected: [string, Record<string, string>, string][] = [
    ['no signature', {}, 'MissingSignature'],
    ['a sha1 signature', { 'x-hub-signature': `sha1=${'0'.repeat(40)}` }, 'MissingSignature'],
    [
      'a signature without the sha256= prefix',
      { 'x-hub-signature-256': '0'.repeat(64) },
      'MalformedSignature',
    ],
    ['a short signature', { 'x-hub-signature-256': 'sha256=abcd' }, 'MalformedSignature'],
    [
      'a signature with another secret',
      { 'x-hub-signature-256': sign('body', 'other') },
      'SignatureMismatch',
    ],
    ['a signature of another body', { 'x-groundwork-signature': sign('other body') }, 'SignatureMismatch'],
  ];
  for (const [name, headers, reason] of rejected) {
    it(`rejects ${name}`, () => {
      expect(verifyWebhook({ headers, body: Buffer.from('body'), secret: SECRET })).toEqual({
        valid: false,
        reason,
      });
    });
  }
});

describe('parseWebhook', () => {
  const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
  const cases: [string, Record<string, string>, Buffer, object][] = [
    [
      'a GitHub push',
      { 'X-GitHub-Event': 'push', 'content-type': 'application/json' },
      json({
        ref: 'refs/heads/main',
        after: SHA,
        before: '0'.repeat(40),
        repository: { full_name: 'acme/p' },
      }),
      { provider: 'github', event: 'push', ref: 'refs/heads/main', commit: SHA },
    ],
    [
      'a GitHub push sent form-encoded',
      { 'x-github-event': 'push', 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.from(`payload=${encodeURIComponent(JSON.stringify({ ref: 'refs/tags/v1', after: SHA }))}`),
      { provider: 'github', event: 'push', ref: 'refs/tags/v1', commit: SHA },
    ],
    [
      'a GitHub branch deletion',
      { 'x-github-event': 'push' },
      json({ ref: 'refs/heads/old', after: '0'.repeat(40), deleted: true }),
      { provider: 'github', event: 'push', ref: 'refs/heads/old' },
    ],
    [
      'a GitHub ping',
      { 'x-github-event': 'ping' },
      json({ zen: 'Keep it logically awesome.' }),
      { provider: 'github', event: 'ping' },
    ],
    [
      'another GitHub event',
      { 'x-github-event': 'issues' },
      json({}),
      { provider: 'github', event: 'other' },
    ],
    [
      'a generic push',
      {},
      json({ ref: 'refs/heads/main', commit: SHA }),
      { provider: 'generic', event: 'push', ref: 'refs/heads/main', commit: SHA },
    ],
    ['a generic push without details', {}, json({}), { provider: 'generic', event: 'push' }],
    [
      'a generic ping',
      { 'X-Groundwork-Event': 'ping' },
      Buffer.from(''),
      { provider: 'generic', event: 'ping' },
    ],
  ];
  for (const [name, headers, body, expected] of cases) {
    it(`reads ${name}`, () => expect(parseWebhook({ headers, body })).toEqual(expected));
  }

  const garbage: [string, Record<string, string>, Buffer][] = [
    ['a body that is not JSON', {}, Buffer.from('<html>')],
    ['a GitHub push without after', { 'x-github-event': 'push' }, json({ ref: 'refs/heads/main' })],
    ['a generic push with a bad commit', {}, json({ commit: 'HEAD' })],
    ['a JSON array', {}, json([1, 2])],
    [
      'a form body without payload',
      { 'x-github-event': 'push', 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.from('a=b'),
    ],
  ];
  for (const [name, headers, body] of garbage) {
    it(`refuses ${name} with InvalidWebhookPayload`, () => {
      expect(() => parseWebhook({ headers, body })).toThrow(
        expect.objectContaining({ code: 'InvalidWebhookPayload' }),
      );
    });
  }
});

describe('webhookHandler over loopback HTTP', () => {
  const pushes: { ref?: string; commit?: string; provider: WebhookProvider }[] = [];
  const errors: unknown[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer(
      webhookHandler({
        secret: SECRET,
        maxBodyBytes: 4096,
        onPush: (push) => {
          pushes.push(push);
          if (push.ref === 'refs/heads/explode') return Promise.reject(new Error('agent busy'));
        },
        onError: (err) => errors.push(err),
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function post(
    body: string | Buffer,
    headers: Record<string, string>,
    method = 'POST',
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path: '/hooks/git', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers 202 to a signed GitHub push and hands it over', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: SHA });
    const res = await post(body, {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': sign(body),
    });
    expect(res.status).toBe(202);
    expect(pushes.at(-1)).toEqual({ provider: 'github', ref: 'refs/heads/main', commit: SHA });
  });

  it('answers 202 to a signed generic push', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/prod', commit: SHA });
    const res = await post(body, { 'x-groundwork-signature': sign(body) });
    expect(res.status).toBe(202);
    expect(pushes.at(-1)).toEqual({ provider: 'generic', ref: 'refs/heads/prod', commit: SHA });
  });

  it('answers 200 to a ping without calling onPush', async () => {
    const count = pushes.length;
    const body = JSON.stringify({ zen: 'Design for failure.' });
    const res = await post(body, { 'x-github-event': 'ping', 'x-hub-signature-256': sign(body) });
    expect(res).toEqual({ status: 200, text: 'pong\n' });
    expect(pushes).toHaveLength(count);
  });

  it('answers 401 to a missing or wrong signature without calling onPush', async () => {
    const count = pushes.length;
    const body = JSON.stringify({ ref: 'refs/heads/main', after: SHA });
    expect((await post(body, { 'x-github-event': 'push' })).status).toBe(401);
    expect(
      (await post(body, { 'x-github-event': 'push', 'x-hub-signature-256': sign(body, 'guess') })).status,
    ).toBe(401);
    expect(pushes).toHaveLength(count);
  });

  it('answers 400 to a signed body that is not a push', async () => {
    const body = 'definitely not json';
    const res = await post(body, { 'x-github-event': 'push', 'x-hub-signature-256': sign(body) });
    expect(res.status).toBe(400);
  });

  it('answers 413 past the body limit, 405 to GET', async () => {
    const big = Buffer.alloc(10_000, 'a');
    expect((await post(big, { 'x-hub-signature-256': sign(big) })).status).toBe(413);
    expect((await post('', {}, 'GET')).status).toBe(405);
  });

  it('answers 202 even when onPush fails later, and reports the failure', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/explode' });
    const res = await post(body, { 'x-groundwork-signature': sign(body) });
    expect(res.status).toBe(202);
    await new Promise((r) => setImmediate(r));
    expect(errors.some((e) => e instanceof Error && e.message === 'agent busy')).toBe(true);
  });

  it('refuses an empty secret', () => {
    expect(() => webhookHandler({ secret: '', onPush: () => {} })).toThrow(RangeError);
  });
});
