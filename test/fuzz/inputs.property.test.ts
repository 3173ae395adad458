import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { Values } from '../../platform/values.js';
import { graphFromCincinnati } from '../../src/cluster-version/graph.js';
import { GroundworkError } from '../../src/core/errors.js';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { parseWebhook, verifyWebhook, webhookHandler } from '../../src/source/webhook.js';
import { loadProjectConfig } from '../../src/project/config.js';
import { loadOverlay } from '../../src/render/synth/overlays.js';
import { SynthValidationError } from '../../src/render/synth/validation.js';
import { fileContents, randomText, type Json } from './arbitraries.js';

/**
 * Every input a user controls ends in success or in a clear error: a GroundworkError with a code,
 * naming the file it is about, and no stack trace in its text. Never another exception (a TypeError
 * from a shape nobody checked), never a hang. The CLI turns these errors into exit code 2
 * (`inputs-cli.e2e.test.ts` checks that end to end, with a memory cap).
 */

const RUNS = Number(process.env.GROUNDWORK_FUZZ_RUNS ?? 300);
/** A hang bound, far above any real parse (milliseconds): not a speed target. */
const HANG_MS = 10_000;

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** Asserts the outcome of one input: a value, or a clear GroundworkError that names `subject`. */
async function clearOutcome(run: () => unknown, subject: RegExp): Promise<void> {
  const started = Date.now();
  let error: unknown;
  try {
    await run();
  } catch (err) {
    error = err;
  }
  expect(Date.now() - started).toBeLessThan(HANG_MS);
  if (error === undefined) return;
  if (!(error instanceof GroundworkError)) {
    throw new Error(
      `not a clear error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      {
        cause: error,
      },
    );
  }
  const text = error.toString();
  expect(error.code).toMatch(/^[A-Z][A-Za-z]+$/);
  expect(text).toMatch(subject);
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('groundwork.yaml', () => {
  const valid = [
    parse(read('groundwork.yaml')) as Json,
    parse(read('templates/init/groundwork.yaml')) as Json,
  ];
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-fuzz-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads or says what is wrong with groundwork.yaml', async () => {
    await fc.assert(
      fc.asyncProperty(fileContents(valid, 'yaml'), async (text) => {
        writeFileSync(join(dir, 'groundwork.yaml'), text);
        await clearOutcome(() => loadProjectConfig(dir), /groundwork\.yaml/);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('overlays', () => {
  const valid = ['dev', 'staging', 'prod'].map((o) => parse(read(`overlays/${o}.yaml`)) as Json);
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-fuzz-overlays-'));
    mkdirSync(join(dir, 'overlays'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const extendsArb = fc.option(
    fc.oneof(
      fc.constantFrom('base', 'prod', 'x', '../outside', '/etc/passwd', '', 'x/../../y', '\u0000'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    { nil: undefined },
  );

  it('loads an overlay (and the chain it extends) or names the overlay file and line that is wrong', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileContents(valid, 'yaml'),
        fileContents(valid, 'yaml'),
        extendsArb,
        async (text, base, parent) => {
          const withExtends =
            parent === undefined
              ? text
              : `extends: ${JSON.stringify(parent)}\n${text.startsWith('extends:') ? '' : text}`;
          writeFileSync(join(dir, 'overlays', 'x.yaml'), withExtends);
          writeFileSync(join(dir, 'overlays', 'base.yaml'), base);
          await clearOutcome(
            () => loadOverlay(join(dir, 'overlays'), 'x', Values, dir),
            /overlay|overlays\/(x|base)\.yaml/,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses an overlay name that leaves the overlays directory', async () => {
    writeFileSync(join(dir, 'secret.yaml'), 'token: s3cr3t\n');
    for (const name of ['../secret', 'a/../../secret', '/etc/hostname']) {
      const err = await loadOverlay(join(dir, 'overlays'), name, Values, dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GroundworkError);
      expect(String(err)).toMatch(/overlay name/);
    }
    writeFileSync(join(dir, 'overlays', 'x.yaml'), 'extends: ../secret\n');
    const err = await loadOverlay(join(dir, 'overlays'), 'x', Values, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthValidationError);
    expect(String(err)).toMatch(/overlays\/x\.yaml.*extends/);
  });
});

describe('file-based catalogs', () => {
  const valid = ['kepler-operator.yaml', 'dependencies.yaml', 'registry-testdata-latest.yaml'].flatMap((f) =>
    parseAllDocuments(read(`test/fixtures/catalogs/${f}`)).map((d) => d.toJS() as Json),
  );

  it('reads a catalog or names the file and blob that is wrong', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileContents(valid), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('---\n', '\n', ''),
        async (blobs, sep) => {
          const text = blobs.map((b) => `${sep}${b}`).join('\n');
          await clearOutcome(
            () => parseCatalog([{ path: 'catalog/index.yaml', text }]),
            /catalog\/index\.yaml/,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('Cincinnati update graphs', () => {
  const graph = JSON.parse(read('test/fixtures/update-graphs/stable-4.8.json')) as {
    nodes: Json[];
    edges: Json[];
    conditionalEdges?: Json[];
  };
  // Smaller graphs than the fixture, so that mutations hit nodes, edges and risks alike.
  const valid: Json[] = [
    {
      nodes: graph.nodes.slice(0, 6),
      edges: [
        [0, 1],
        [1, 2],
        [2, 5],
      ],
      conditionalEdges: graph.conditionalEdges?.slice(0, 1) ?? [],
    },
    { nodes: graph.nodes.slice(0, 3), edges: [[0, 2]] },
  ];

  it('reads a graph or names the file and what is wrong', async () => {
    await fc.assert(
      fc.asyncProperty(fileContents(valid, 'json'), async (text) => {
        await clearOutcome(
          () => graphFromCincinnati(text, 'graphs/stable-4.8.json'),
          /graphs\/stable-4\.8\.json/,
        );
      }),
      { numRuns: RUNS },
    );
  });
});

describe('webhook bodies and headers', () => {
  const SECRET = 'fuzz-secret';
  const sign = (body: Buffer) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const push = {
    ref: 'refs/heads/main',
    after: '0123456789abcdef0123456789abcdef01234567',
    repository: { full_name: 'o/r' },
  };
  const bodyArb = fc.oneof(
    fileContents([push as Json, { ref: 'refs/heads/main', commit: push.after }], 'json'),
    randomText,
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constantFrom('payload=%7B%22ref%22%3A1%7D', 'payload=', 'x=1', `payload=${'%5B'.repeat(5000)}`),
  );
  const headersArb = fc.record(
    {
      'x-github-event': fc.constantFrom('push', 'ping', 'issues', '', 'PUSH'),
      'x-groundwork-event': fc.constantFrom('ping', 'push', ''),
      'content-type': fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded; charset=utf-8',
        'text/plain',
        '',
      ),
      'x-hub-signature-256': fc.constantFrom('sha256=zz', 'sha1=abc', '', 'sha256='),
    },
    { requiredKeys: [] },
  );

  it('verifies and parses any signed body into an event or an InvalidWebhookPayload error', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, headersArb, fc.boolean(), async (text, headers, github) => {
        const body = Buffer.from(text);
        const signed = {
          ...headers,
          [github ? 'x-hub-signature-256' : 'x-groundwork-signature']: sign(body),
        };
        if (!github) delete (signed as Record<string, string>)['x-hub-signature-256'];
        const verdict = verifyWebhook({ headers: signed, body, secret: SECRET });
        expect(verdict.valid).toBe(true);
        await clearOutcome(() => parseWebhook({ headers: signed, body }), /webhook|payload/);
      }),
      { numRuns: RUNS },
    );
  });

  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(webhookHandler({ secret: SECRET, onPush: () => {}, maxBodyBytes: 64 * 1024 }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = (method: string, headers: Record<string, string>, body: Buffer) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path: '/hook', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('answers any request with a 2xx or 4xx status, never a 5xx or a dropped connection', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        headersArb,
        fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'),
        fc.constantFrom('none', 'good', 'bad'),
        fc.boolean(),
        async (text, headers, method, signature, huge) => {
          const body = Buffer.from(
            huge ? text.repeat(Math.ceil((70 * 1024) / Math.max(1, text.length))) : text,
          );
          const sent: Record<string, string> = { ...headers };
          if (signature === 'good') sent['x-groundwork-signature'] = sign(body);
          if (signature === 'bad') sent['x-groundwork-signature'] = `sha256=${'0'.repeat(64)}`;
          const status = await post(method, sent, body);
          expect([200, 202, 400, 401, 405, 413]).toContain(status);
        },
      ),
      { numRuns: Math.min(RUNS, 200) },
    );
  });
});
