// Issue 31, Low 11 and 12: an alert URL `http://[::ffff:169.254.169.254]/` passed the link-local
// check (it compared the text), and a chart lock's `url:` was fetched by the synth parent with no
// address check, following redirects. Every outbound URL from repository content or configuration
// now goes through one check after DNS resolution (IPv4-mapped, NAT64, 6to4 forms included), the
// connection is pinned to the checked address, and redirects are refused or checked hop by hop.
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkedFetch } from '../../src/core/checked-fetch.js';
import { hasCode } from '../../src/core/errors.js';
import type { OutboundPolicy, Resolver } from '../../src/core/outbound-url.js';
import { readChartLock } from '../../src/render/helm/chart-lock.js';
import { lockedArchive, resolveChart } from '../../src/render/helm/chart-repository.js';
import { notificationsSchema } from '../../src/project/notifications-config.js';
import { alertTargets } from '../../src/report/notifications/alert-targets.js';
import { fetchTransportWith } from '../../src/report/notifications/fetch-transport.js';
import { writeFileSync } from 'node:fs';

/** A resolver that answers as a hostile DNS would: the metadata address for `metadata.test`. */
const hostile: Resolver = async (host) =>
  host === 'metadata.test'
    ? [{ address: '169.254.169.254', family: 4 }]
    : host === 'mixed.test'
      ? [
          { address: '127.0.0.1', family: 4 },
          { address: '::ffff:169.254.169.254', family: 6 },
        ]
      : host === 'nat64.test'
        ? [{ address: '64:ff9b::a9fe:a9fe', family: 6 }]
        : [{ address: '127.0.0.1', family: 4 }];

/** Loopback allowed (the test's own server), everything else as in production. */
const policy: OutboundPolicy = { allowLoopback: true, resolve: hostile };

let server: Server;
let base: string;
const hits: string[] = [];
let handler: (url: string) => { status: number; location?: string; body?: string } = () => ({ status: 200 });

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    const answer = handler(req.url ?? '/');
    res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
    res.end(answer.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => {
  hits.length = 0;
  handler = () => ({ status: 200 });
});

const request = (url: string) => ({
  url,
  method: 'POST' as const,
  headers: { authorization: 'Bearer t0ken' },
  body: '{}',
});
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(hasCode(err, 'UrlNotAllowed'), String(err)).toBe(true);
  return String(err);
};

describe('alert URLs', () => {
  it.each([
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[fe80::1%25eth0]/',
    'http://2852039166/',
  ])('%s in groundwork.yaml is refused', (url) => {
    const parsed = notificationsSchema.safeParse({
      secret: 'alerts',
      alerts: [{ name: 'ops', type: 'slack', url }],
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).not.toContain('169.254');
  });

  it('the same URL from the Secret is refused', () => {
    let err: unknown;
    try {
      alertTargets(
        {
          secret: 'alerts',
          alerts: [{ name: 'ops', type: 'slack', urlKey: 'url' }],
          dedupWindow: '10m',
        } as never,
        {
          labels: { 'groundwork.io/notifications': 'true' },
          data: { url: 'http://[::ffff:169.254.169.254]/' },
        },
      );
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'InvalidNotificationUrl')).toBe(true);
  });

  it.each(['metadata.test', 'mixed.test', 'nat64.test'])(
    'a host name that resolves to a metadata address (%s) gets nothing: refused before any connection',
    async (host) => {
      const transport = fetchTransportWith(policy);
      await refusal(transport.send(request(`http://${host}/hook`), AbortSignal.timeout(5000)));
      expect(hits).toEqual([]);
    },
  );

  it('the connection goes to the address checked: a name the resolver maps to loopback reaches this server', async () => {
    const transport = fetchTransportWith(policy);
    const port = new URL(base).port;
    expect(
      (await transport.send(request(`http://receiver.test:${port}/hook`), AbortSignal.timeout(5000))).status,
    ).toBe(200);
    expect(hits).toEqual([`POST receiver.test:${port} /hook`]);
  });

  it('a redirect to a link-local address is not followed (a failed delivery)', async () => {
    handler = () => ({ status: 302, location: 'http://169.254.169.254/latest/meta-data/' });
    const transport = fetchTransportWith(policy);
    expect((await transport.send(request(`${base}/hook`), AbortSignal.timeout(5000))).status).toBe(302);
    expect(hits).toHaveLength(1);
  });

  it('loopback itself is refused unless the process allows it', async () => {
    await refusal(
      fetchTransportWith({ allowLoopback: false }).send(request(`${base}/hook`), AbortSignal.timeout(5000)),
    );
    expect(hits).toEqual([]);
  });
});

describe('chart repositories and lock entries', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.GROUNDWORK_CACHE_DIR;
    process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-ssrf-cache-'));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
    else process.env.GROUNDWORK_CACHE_DIR = saved;
  });

  const entry = (url: string) => ({
    repo: 'https://charts.example.com',
    name: 'demo',
    version: '1.0.0',
    url,
    digest: `sha256:${'0'.repeat(64)}`,
  });

  it('a lock url: that names a metadata address in any IPv6 form is refused when the lock is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-ssrf-lock-'));
    writeFileSync(
      join(dir, 'groundwork-charts.lock.yaml'),
      `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n- repo: https://charts.example.com\n  name: demo\n  version: 1.0.0\n  url: http://[::ffff:169.254.169.254]/demo-1.0.0.tgz\n  digest: sha256:${'0'.repeat(64)}\n`,
    );
    await expect(readChartLock(dir)).rejects.toThrow(/metadata/);
  });

  it.each([
    'http://metadata.test/demo-1.0.0.tgz',
    'http://mixed.test/demo-1.0.0.tgz',
    'http://nat64.test/x.tgz',
  ])('a lock url: whose host resolves to a metadata address (%s) is never fetched', async (url) => {
    const err = await lockedArchive(entry(url), { policy }).catch((e: unknown) => e);
    expect(hasCode(err, 'ChartFetchFailed')).toBe(true);
    expect(String(err)).toContain('resolves to a cloud metadata address');
    expect(hits).toEqual([]);
  });

  it('a lock url: that redirects to a link-local address is refused at that hop', async () => {
    handler = () => ({ status: 302, location: 'http://[::ffff:169.254.169.254]/creds' });
    const err = await lockedArchive(entry(`${base}/demo-1.0.0.tgz`), { policy }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/metadata/);
    expect(hits).toHaveLength(1);
  });

  it('a repository index whose archive url resolves to a metadata address is never fetched', async () => {
    handler = (url) =>
      url === '/index.yaml'
        ? {
            status: 200,
            body: 'entries:\n  demo:\n  - version: 1.0.0\n    urls: [http://metadata.test/demo-1.0.0.tgz]\n',
          }
        : { status: 404 };
    const err = await resolveChart({ repo: base, name: 'demo', version: '1.0.0' }, { policy }).catch(
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(/metadata/);
    expect(hits).toEqual([expect.stringContaining('/index.yaml')]);
  });

  it('redirects are followed at most 5 times, each hop checked', async () => {
    handler = (url) => ({ status: 302, location: `${base}${url}x` });
    const err = await checkedFetch(`${base}/a`, { redirect: 'follow', policy }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/more than 5 redirects/);
    expect(hits).toHaveLength(6);
  });

  it('an authorization header does not follow a redirect to another origin', async () => {
    const other = createServer((req, res) => {
      hits.push(`other ${req.headers.authorization ?? 'none'}`);
      res.end('ok');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    handler = () => ({
      status: 307,
      location: `http://127.0.0.1:${(other.address() as { port: number }).port}/`,
    });
    const res = await checkedFetch(`${base}/a`, {
      redirect: 'follow',
      policy,
      headers: { authorization: 'Bearer t0ken' },
    });
    expect(await res.text()).toBe('ok');
    expect(hits.at(-1)).toBe('other none');
    await new Promise((r) => other.close(r));
  });
});
