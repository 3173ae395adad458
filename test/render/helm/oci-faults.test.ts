// Registry behaviour the real registry in oci-chart.e2e cannot produce: the anonymous bearer
// challenge, a blob redirect to another host, wrong media types, oversized or tampered answers,
// hostile realms and redirects. A small loopback HTTP server stands in for those faults only.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { archivePath } from '../../../src/render/helm/chart-archive-cache.js';
import type { ChartLockEntry } from '../../../src/render/helm/chart-lock.js';
import { lockedOciArchive, OCI_MEDIA_TYPES, resolveOciChart } from '../../../src/render/helm/oci-chart.js';

const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const LAYER = Buffer.from('not really a tgz: the tests never render it');
const CONFIG = Buffer.from('{"name":"demo","version":"1.0.0"}');
const SECRET = 'BODY-SECRET-4242';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Fake {
  /** What the next requests get; each test sets its own. */
  handler: Handler;
  requests: { url: string; authorization: string | undefined; host: string }[];
}

function fakeServer(bind: string): Promise<{ fake: Fake; server: Server; origin: string }> {
  const fake: Fake = { handler: (_q, s) => s.writeHead(404).end(), requests: [] };
  const server = createServer((req, res) => {
    fake.requests.push({ url: req.url ?? '', authorization: req.headers.authorization, host: bind });
    fake.handler(req, res);
  });
  return new Promise((done) =>
    server.listen(0, bind, () =>
      done({ fake, server, origin: `${bind}:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

function manifestOf(opts: { config?: string; layer?: string; annotations?: Record<string, string> } = {}) {
  return JSON.stringify({
    schemaVersion: 2,
    config: {
      mediaType: opts.config ?? OCI_MEDIA_TYPES.helmConfig,
      digest: sha(CONFIG),
      size: CONFIG.length,
    },
    layers: [{ mediaType: opts.layer ?? OCI_MEDIA_TYPES.chartLayer, digest: sha(LAYER), size: LAYER.length }],
    annotations: opts.annotations ?? {
      'org.opencontainers.image.title': 'demo',
      'org.opencontainers.image.version': '1.0.0',
    },
  });
}

let registry: Awaited<ReturnType<typeof fakeServer>>;
let blobs: Awaited<ReturnType<typeof fakeServer>>;
let key: { repo: string; name: string; version: string };
const savedCache = process.env.GROUNDWORK_CACHE_DIR;

beforeAll(async () => {
  registry = await fakeServer('127.0.0.1');
  // Another host on loopback: where a registry redirects blob downloads (object storage).
  blobs = await fakeServer('127.0.0.2');
  key = { repo: `oci://${registry.origin}/charts`, name: 'demo', version: '1.0.0' };
});

afterAll(async () => {
  // The stalling tests leave connections open.
  registry.server.closeAllConnections();
  blobs.server.closeAllConnections();
  await new Promise((done) => registry.server.close(done));
  await new Promise((done) => blobs.server.close(done));
});

beforeEach(() => {
  process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-oci-faults-'));
  registry.fake.requests = [];
  blobs.fake.requests = [];
});

afterEach(() => {
  process.env.GROUNDWORK_CACHE_DIR = savedCache;
  if (savedCache === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
});

/** A registry serving `manifest` for the tag and its digest and the layer, with optional overrides. */
function serve(
  opts: {
    manifest?: string;
    contentType?: string;
    layer?: Buffer;
    auth?: (req: IncomingMessage, res: ServerResponse) => boolean;
  } = {},
) {
  const manifest = opts.manifest ?? manifestOf();
  registry.fake.handler = (req, res) => {
    if (opts.auth && !opts.auth(req, res)) return;
    const url = req.url ?? '';
    if (url === '/v2/charts/demo/manifests/1.0.0' || url === `/v2/charts/demo/manifests/${sha(manifest)}`)
      return res
        .writeHead(200, { 'content-type': opts.contentType ?? OCI_MEDIA_TYPES.manifest })
        .end(manifest);
    if (url === `/v2/charts/demo/blobs/${sha(LAYER)}`) return res.writeHead(200).end(opts.layer ?? LAYER);
    res.writeHead(404).end(SECRET);
  };
  return manifest;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code: 'ChartFetchFailed' });
  const text = String(err);
  expect(text).not.toContain(SECRET);
  return text;
}

describe('OCI charts against registry faults', () => {
  it('answers the anonymous Bearer challenge, sends the token only to the registry (not to the blob host it redirects to), and locks the manifest digest', async () => {
    const manifest = manifestOf();
    registry.fake.handler = (req, res) => {
      const url = req.url ?? '';
      if (url.startsWith('/token')) {
        expect(req.headers.authorization).toBeUndefined();
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"t0k"}');
      }
      if (req.headers.authorization !== 'Bearer t0k')
        return res
          .writeHead(401, {
            'www-authenticate': `Bearer realm="http://${registry.origin}/token",service="fake",scope="repository:charts/demo:pull"`,
          })
          .end(SECRET);
      if (url.includes('/manifests/'))
        return res.writeHead(200, { 'content-type': OCI_MEDIA_TYPES.manifest }).end(manifest);
      if (url === `/v2/charts/demo/blobs/${sha(LAYER)}`)
        return res.writeHead(307, { location: `http://${blobs.origin}/blob/${sha(LAYER)}?sig=1` }).end();
      res.writeHead(404).end();
    };
    blobs.fake.handler = (_req, res) => res.writeHead(200).end(LAYER);

    const entry = await resolveOciChart(key);
    expect(entry).toEqual({
      ...key,
      url: `oci://${registry.origin}/charts/demo@${sha(manifest)}`,
      digest: sha(LAYER),
      manifestDigest: sha(manifest),
    });
    const token = registry.fake.requests.find((r) => r.url.startsWith('/token'))!;
    expect(new URL(token.url, 'http://x').searchParams.get('scope')).toBe('repository:charts/demo:pull');
    expect(new URL(token.url, 'http://x').searchParams.get('service')).toBe('fake');
    expect(registry.fake.requests.filter((r) => r.authorization === 'Bearer t0k').map((r) => r.url)).toEqual([
      '/v2/charts/demo/manifests/1.0.0',
      `/v2/charts/demo/blobs/${sha(LAYER)}`,
    ]);
    expect(blobs.fake.requests).toEqual([
      { url: `/blob/${sha(LAYER)}?sig=1`, authorization: undefined, host: '127.0.0.2' },
    ]);
    expect(readFileSync(archivePath(sha(LAYER)))).toEqual(LAYER);
  });

  it('synth fetches a locked chart by its manifest digest, never by the tag', async () => {
    const manifest = serve();
    const entry: ChartLockEntry = {
      ...key,
      url: '',
      digest: sha(LAYER),
      manifestDigest: sha(manifest),
    };
    expect(readFileSync(await lockedOciArchive(entry))).toEqual(LAYER);
    expect(registry.fake.requests.map((r) => r.url)).toEqual([
      `/v2/charts/demo/manifests/${sha(manifest)}`,
      `/v2/charts/demo/blobs/${sha(LAYER)}`,
    ]);
  });

  it.each([
    [
      'a Docker manifest media type',
      { contentType: 'application/vnd.docker.distribution.manifest.v2+json' },
      /has media type application\/vnd\.docker/,
    ],
    ['an image index', { contentType: OCI_MEDIA_TYPES.index }, /is an image index/],
    [
      "a config that is not helm's",
      { manifest: manifestOf({ config: 'application/vnd.oci.image.config.v1+json' }) },
      /is not a Helm chart: its config has media type application\/vnd\.oci\.image\.config/,
    ],
    [
      'a layer that is not a chart',
      { manifest: manifestOf({ layer: 'application/vnd.oci.image.layer.v1.tar' }) },
      /0 chart layers and a layer of media type application\/vnd\.oci\.image\.layer/,
    ],
    [
      'another chart under the tag',
      { manifest: manifestOf({ annotations: { 'org.opencontainers.image.title': 'evil' } }) },
      /is chart evil 1\.0\.0, not demo 1\.0\.0/,
    ],
    ['a manifest that is not JSON', { manifest: `{${SECRET}` }, /is not an OCI image manifest/],
    [
      'chart bytes that do not match the layer digest',
      { layer: Buffer.from(`${SECRET} other bytes`) },
      /the chart layer's bytes have digest sha256:[0-9a-f]{64} \(\d+ bytes\), not sha256:/,
    ],
  ])('chart lock refuses %s, echoing nothing the registry sent', async (_what, opts, message) => {
    serve(opts);
    expect(await refusal(resolveOciChart(key))).toMatch(message);
    expect(existsSync(archivePath(sha(LAYER)))).toBe(false);
  });

  it('refuses a manifest larger than 4 MiB, by its length or by its bytes', async () => {
    registry.fake.handler = (_req, res) =>
      res
        .writeHead(200, {
          'content-type': OCI_MEDIA_TYPES.manifest,
          'content-length': String(5 * 1024 * 1024),
        })
        .end();
    expect(await refusal(resolveOciChart(key))).toMatch(/manifest 1\.0\.0: larger than 4 MiB/);
    registry.fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': OCI_MEDIA_TYPES.manifest });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 5; i++) res.write(chunk);
      res.end();
    };
    expect(await refusal(resolveOciChart(key))).toMatch(/manifest 1\.0\.0: larger than 4 MiB/);
  });

  it("refuses a locked manifest served with other bytes, and a lock whose layer is not the manifest's", async () => {
    const manifest = serve();
    const other = sha('another manifest');
    registry.fake.handler = (_req, res) =>
      res.writeHead(200, { 'content-type': OCI_MEDIA_TYPES.manifest }).end(manifest);
    const tampered = await refusal(
      lockedOciArchive({ ...key, url: '', digest: sha(LAYER), manifestDigest: other }),
    );
    expect(tampered).toContain(`the registry's manifest ${other} has other bytes (${sha(manifest)})`);
    const edited = await refusal(
      lockedOciArchive({ ...key, url: '', digest: sha('edited'), manifestDigest: sha(manifest) }),
    );
    expect(edited).toContain(`holds chart layer ${sha(LAYER)}, not the locked ${sha('edited')}`);
  });

  it.each([
    [
      'on another host',
      'https://169.254.169.254/latest/meta-data/token',
      /token realm is on another host \(169\.254\.169\.254\)/,
    ],
    ['a file: URL', 'file:///etc/passwd', /token realm is not https \(file/],
    [
      'plain http off loopback',
      'http://auth.example.com/token',
      /token realm is not https \(http; plain http only on loopback\)/,
    ],
    ['with credentials', 'https://user:pw@127.0.0.1/token', /token realm holds credentials/],
  ])('refuses a Bearer realm %s without asking it', async (_what, realm, message) => {
    registry.fake.handler = (_req, res) =>
      res.writeHead(401, { 'www-authenticate': `Bearer realm="${realm}",service="x"` }).end(SECRET);
    expect(await refusal(resolveOciChart(key))).toMatch(message);
    expect(registry.fake.requests).toHaveLength(1);
  });

  it('says a registry that asks for Basic credentials, or refuses the anonymous token, is private', async () => {
    registry.fake.handler = (_req, res) =>
      res.writeHead(401, { 'www-authenticate': 'Basic realm="registry"' }).end(SECRET);
    expect(await refusal(resolveOciChart(key))).toMatch(/asks for credentials \(basic authentication\)/);
    registry.fake.handler = (req, res) =>
      req.url?.startsWith('/token')
        ? res.writeHead(403).end(SECRET)
        : res.writeHead(401, { 'www-authenticate': `Bearer realm="http://${registry.origin}/token"` }).end();
    expect(await refusal(resolveOciChart(key))).toMatch(
      /refused an anonymous token for charts\/demo \(HTTP 403 from 127\.0\.0\.1:\d+\): the repository is private or does not exist/,
    );
    registry.fake.handler = (req, res) =>
      req.url?.startsWith('/token')
        ? res.writeHead(200).end(`<html>${SECRET}</html>`)
        : res.writeHead(401, { 'www-authenticate': `Bearer realm="http://${registry.origin}/token"` }).end();
    expect(await refusal(resolveOciChart(key))).toMatch(/answered no token/);
  });

  it('refuses a version that is no OCI tag (a hostile request reaching chart lock) without a request', async () => {
    serve();
    for (const version of ['../../../v2/other/manifests/x', 'a/b', '1.0.0?x'])
      expect(await refusal(resolveOciChart({ ...key, version }))).toMatch(/its version is not an OCI tag/);
    expect(registry.fake.requests).toEqual([]);
  });

  it('gives up on a registry that stalls before its headers or in the middle of its body', async () => {
    const limits = { limits: { timeoutMs: 300, maxRedirects: 5 } };
    registry.fake.handler = () => undefined;
    expect(await refusal(resolveOciChart(key, limits))).toMatch(
      /manifest 1\.0\.0: 127\.0\.0\.1:\d+ cannot be reached \(timed out\)/,
    );
    registry.fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': OCI_MEDIA_TYPES.manifest, 'content-length': '1000' });
      res.write('{"schemaVersion":');
    };
    expect(await refusal(resolveOciChart(key, limits))).toMatch(
      /manifest 1\.0\.0: the response broke off \(timed out\)/,
    );
  });

  it('refuses a redirect loop, a redirect to plain http off loopback, and says HTTP 500 without its body', async () => {
    registry.fake.handler = (req, res) => res.writeHead(302, { location: req.url ?? '/' }).end();
    expect(await refusal(resolveOciChart(key))).toMatch(/more than 5 redirects/);
    registry.fake.handler = (_req, res) => res.writeHead(302, { location: 'http://example.com/x' }).end();
    expect(await refusal(resolveOciChart(key))).toMatch(
      /http:\/\/example\.com is not followed \(https only; plain http on loopback\)/,
    );
    registry.fake.handler = (_req, res) => res.writeHead(500).end(SECRET);
    expect(await refusal(resolveOciChart(key))).toMatch(/manifest 1\.0\.0: HTTP 500/);
  });
});
