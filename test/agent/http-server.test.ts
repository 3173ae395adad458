import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHttpServer, httpBindOf, type Readiness } from '../../src/agent/http-server.js';
import { hasCode } from '../../src/core/errors.js';
import { GroundworkMetrics } from '../../src/report/metrics.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  method: string,
  path: string,
  body?: string,
  agent: Agent | false = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('AgentHttpServer over loopback', () => {
  let server: AgentHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves metrics, health, readiness and the webhook', async () => {
    const metrics = new GroundworkMetrics({ processMetrics: false });
    metrics.leader(true);
    let readiness: Readiness = { ready: false, reason: 'first reconcile not finished' };
    const hooks: string[] = [];
    server = new AgentHttpServer({
      host: '127.0.0.1',
      port: 0,
      metrics,
      ready: () => readiness,
      webhook: (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          hooks.push(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(202).end('queued');
        });
      },
    });
    const { port } = await server.start();
    expect(port).toBeGreaterThan(0);

    const m = await call(port, 'GET', '/metrics');
    expect(m.status).toBe(200);
    expect(m.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(m.body).toContain('groundwork_leader 1');

    expect(await call(port, 'GET', '/healthz')).toMatchObject({ status: 200, body: 'ok\n' });

    expect(await call(port, 'GET', '/readyz')).toMatchObject({
      status: 503,
      body: 'not ready: first reconcile not finished\n',
    });
    readiness = { ready: true, reason: 'standby, leader is replica-a' };
    expect(await call(port, 'GET', '/readyz')).toMatchObject({
      status: 200,
      body: 'ready: standby, leader is replica-a\n',
    });

    expect(await call(port, 'POST', '/webhook', '{"ref":"refs/heads/main"}')).toMatchObject({
      status: 202,
      body: 'queued',
    });
    expect(hooks).toEqual(['{"ref":"refs/heads/main"}']);
  });

  it('answers HEAD, wrong methods, unknown paths, a missing webhook and a failing readiness check', async () => {
    server = new AgentHttpServer({
      host: '127.0.0.1',
      port: 0,
      metrics: new GroundworkMetrics({ processMetrics: false }).registry,
      ready: () => {
        throw new Error('lease store unreachable');
      },
    });
    const { port } = await server.start();
    expect(await call(port, 'HEAD', '/healthz')).toMatchObject({ status: 200, body: '' });
    const wrong = await call(port, 'POST', '/metrics');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect((await call(port, 'GET', '/webhook')).status).toBe(405);
    expect((await call(port, 'POST', '/webhook', '{}')).status).toBe(404);
    expect((await call(port, 'GET', '/nope')).status).toBe(404);
    expect(await call(port, 'GET', '/readyz')).toMatchObject({
      status: 503,
      body: 'not ready: readiness check failed: lease store unreachable\n',
    });
    expect((await call(port, 'GET', '/metrics')).body).toContain('groundwork_objects');
  });

  it('closes with keep-alive connections open and frees the port', async () => {
    server = new AgentHttpServer({
      host: '127.0.0.1',
      port: 0,
      metrics: new GroundworkMetrics({ processMetrics: false }),
      ready: () => true,
    });
    const { port } = await server.start();
    const keepAlive = new Agent({ keepAlive: true });
    expect((await call(port, 'GET', '/readyz', undefined, keepAlive)).status).toBe(200);
    await server.close();
    keepAlive.destroy();
    server = undefined;
    await expect(call(port, 'GET', '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('--http-bind', () => {
  // An address of this host other than 127.0.0.1: a network interface's, else another loopback
  // address (Linux routes all of 127/8 to lo, and a socket bound to 127.0.0.1 refuses it).
  const elsewhere =
    Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.2';
  const servers: AgentHttpServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  const listen = async (host: string) => {
    const server = new AgentHttpServer({
      host,
      port: 0,
      metrics: new GroundworkMetrics({ processMetrics: false }),
      ready: () => true,
    });
    servers.push(server);
    return server.start();
  };

  it(`127.0.0.1 binds loopback only: ${elsewhere} is refused (0.0.0.0 accepts it)`, async () => {
    const loopback = await listen(httpBindOf('127.0.0.1', {}));
    expect(loopback.host).toBe('127.0.0.1');
    expect(await accepts('127.0.0.1', loopback.port)).toBe(true);
    expect(await accepts(elsewhere, loopback.port)).toBe(false);
    const everywhere = await listen(httpBindOf('0.0.0.0', {}));
    expect(await accepts(elsewhere, everywhere.port)).toBe(true);
  });

  it.each([
    { flag: undefined, env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' }, bind: '0.0.0.0' },
    { flag: undefined, env: {}, bind: '127.0.0.1' },
    { flag: '::', env: {}, bind: '::' },
    { flag: '127.0.0.1', env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' }, bind: '127.0.0.1' },
  ])('$flag with $env listens on $bind', ({ flag, env, bind }) => {
    expect(httpBindOf(flag, env)).toBe(bind);
  });

  it.each(['localhost', '0.0.0.0; rm -rf /', ''])('refuses %j: not an IP address (InvalidFlag)', (flag) => {
    let error: unknown;
    try {
      httpBindOf(flag, {});
    } catch (err) {
      error = err;
    }
    expect(hasCode(error, 'InvalidFlag')).toBe(true);
  });
});
