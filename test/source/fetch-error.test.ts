import { describe, expect, it } from 'vitest';
import { fetchError, scrubUrl } from '../../src/source/fetch-error.js';

describe('scrubUrl', () => {
  const cases: [string, string, unknown][] = [
    ['no userinfo', 'https://git.example/p.git', { url: 'https://git.example/p.git', auth: undefined }],
    [
      'a user and an encoded password',
      'https://bot:p%40ss%3Aw@git.example/p.git',
      { url: 'https://git.example/p.git', auth: { username: 'bot', password: 'p@ss:w' } },
    ],
    [
      "a token as the user (GitHub's https://<token>@github.com form)",
      'https://ghp_abc@github.com/acme/p.git',
      { url: 'https://github.com/acme/p.git', auth: { token: 'ghp_abc' } },
    ],
  ];
  for (const [name, url, expected] of cases) {
    it(`splits ${name}`, () => expect(scrubUrl(url, undefined)).toEqual(expected));
  }

  it('prefers explicit credentials and still strips the URL', () => {
    expect(scrubUrl('https://a:b@h/p.git', { token: 't' })).toEqual({
      url: 'https://h/p.git',
      auth: { token: 't' },
    });
  });
});

describe('fetchError', () => {
  const ctx = {
    url: 'https://git.example/p.git',
    auth: { username: 'bot', password: 's3cr3t-value' },
    remoteRef: 'refs/heads/main',
    timedOut: false,
    timeoutMs: 1000,
  };
  const httpError = (statusCode: number, statusMessage: string) =>
    Object.assign(new Error(`HTTP Error: ${statusCode} ${statusMessage}`), {
      code: 'HttpError',
      data: { statusCode, statusMessage, response: 'body echoing s3cr3t-value' },
    });

  const cases: [string, unknown, object][] = [
    ['401', httpError(401, 'Unauthorized'), { code: 'AuthFailed', statusCode: 401 }],
    ['403', httpError(403, 'Forbidden'), { code: 'AuthFailed', statusCode: 403 }],
    ['404', httpError(404, 'Not Found'), { code: 'FetchFailed', statusCode: 404 }],
    ['503', httpError(503, 'Service Unavailable'), { code: 'FetchFailed', statusCode: 503 }],
    [
      'a missing remote ref',
      Object.assign(new Error('Could not find refs/heads/main.'), {
        code: 'NotFoundError',
        data: { what: 'refs/heads/main' },
      }),
      { code: 'RevisionNotFound' },
    ],
    [
      'a dumb HTTP server',
      Object.assign(new Error('Remote did not reply using the "smart" HTTP protocol.'), {
        code: 'SmartHttpError',
      }),
      { code: 'FetchFailed', statusCode: undefined },
    ],
    [
      'a network error',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      { code: 'FetchFailed' },
    ],
  ];
  for (const [name, err, expected] of cases) {
    it(`maps ${name}`, () => expect(fetchError(err, ctx)).toMatchObject(expected));
  }

  it('scrubs the message and the cause, and keeps no reference to the original error', () => {
    const original = Object.assign(
      new Error('request to https://bot:s3cr3t-value@git.example/p.git failed: s3cr3t-value'),
      { code: 'EPROTO', request: { headers: { authorization: 'Basic abc' } } },
    );
    const err = fetchError(original, ctx);
    const cause = err.cause as Error & { code?: string };
    expect(err.code).toBe('FetchFailed');
    expect(cause).not.toBe(original);
    expect(cause.code).toBe('EPROTO');
    for (const text of [err.message, String(err), cause.message, cause.stack ?? '', JSON.stringify(cause)]) {
      expect(text).not.toContain('s3cr3t-value');
      expect(text).not.toContain('Basic abc');
    }
  });

  it('is FetchTimeout whatever the abort surfaced as', () => {
    expect(fetchError(new Error('The operation was aborted'), { ...ctx, timedOut: true })).toMatchObject({
      code: 'FetchTimeout',
    });
  });
});
