import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { GroundworkError } from '../core/errors.js';

/** Exposition text and its Content-Type: a `GroundworkMetrics`, or a prom-client `Registry`. */
export type MetricsSource =
  | { text(): Promise<string>; readonly contentType: string }
  | { metrics(): Promise<string>; readonly contentType: string };

/** What `/readyz` reports: ready, or not with a reason (e.g. `first reconcile not finished`). */
export type Readiness = { ready: true; reason?: string } | { ready: false; reason: string };

export interface AgentHttpServerOptions {
  /** IP address to listen on (`--http-bind`; `httpBindOf`). @default '0.0.0.0' */
  host?: string;
  /** Port; `0` picks a free one (tests). @default 8080 */
  port?: number;
  /** The metrics to expose on `GET /metrics` (a `GroundworkMetrics` or a prom-client `Registry`). */
  metrics: MetricsSource;
  /**
   * Asked on every `GET /readyz`: ready once the first reconcile finished (leader) or while this
   * replica is a healthy standby. A thrown error counts as not ready.
   */
  ready: () => Readiness | boolean | Promise<Readiness | boolean>;
  /** Handles `POST /webhook` (e.g. `webhookHandler` from src/source/webhook.ts); 404 when absent. */
  webhook?: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
  /**
   * Serves every other path it owns (the dashboard, `dashboardHandler` from src/ui, behind its own
   * token check) and returns true; false leaves the request to the 404. The paths above are never
   * passed to it.
   */
  dashboard?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/**
 * The agent's HTTP surface on one port: `GET /metrics` (Prometheus text), `GET /healthz` (200 while
 * the process serves requests), `GET /readyz` (200 or 503 with the reason, from `ready()`) and
 * `POST /webhook` (delegated), and the dashboard's pages when `dashboard` is given. HEAD works
 * wherever GET does; other methods get 405 with `Allow`. It does no authentication itself: the
 * webhook handler verifies signatures, the dashboard checks bearer tokens (`reviewAuth`).
 *
 * @example
 * const server = new AgentHttpServer({ port: 0, metrics, ready: () => agent.readiness() });
 * const { port } = await server.start();
 */
export class AgentHttpServer {
  private server: Server | undefined;

  constructor(private readonly opts: AgentHttpServerOptions) {}

  /** Listens; resolves with the bound address once it accepts connections. */
  async start(): Promise<{ host: string; port: number }> {
    if (this.server) throw new Error('AgentHttpServer already started');
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent)
          send(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}\n`);
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 8080, this.opts.host ?? '0.0.0.0', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    return { host: addr.address, port: addr.port };
  }

  /** Stops listening and closes open connections (keep-alive ones included). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://agent').pathname;
    const method = req.method ?? 'GET';
    const get = method === 'GET' || method === 'HEAD';
    switch (path) {
      case '/healthz':
        if (!get) return notAllowed(res, 'GET, HEAD');
        return send(res, 200, 'ok\n');
      case '/readyz': {
        if (!get) return notAllowed(res, 'GET, HEAD');
        const r = await this.readiness();
        return send(
          res,
          r.ready ? 200 : 503,
          `${r.ready ? 'ready' : 'not ready'}${r.reason ? `: ${r.reason}` : ''}\n`,
        );
      }
      case '/metrics': {
        if (!get) return notAllowed(res, 'GET, HEAD');
        const m = this.opts.metrics;
        const text = await ('text' in m ? m.text() : m.metrics());
        return send(res, 200, text, m.contentType);
      }
      case '/webhook':
        if (method !== 'POST') return notAllowed(res, 'POST');
        if (!this.opts.webhook) return send(res, 404, 'no webhook configured\n');
        await this.opts.webhook(req, res);
        return;
      default:
        if (this.opts.dashboard && (await this.opts.dashboard(req, res))) return;
        return send(res, 404, 'not found\n');
    }
  }

  private async readiness(): Promise<Readiness> {
    try {
      const r = await this.opts.ready();
      return typeof r === 'boolean' ? (r ? { ready: true } : { ready: false, reason: 'not ready' }) : r;
    } catch (err) {
      return {
        ready: false,
        reason: `readiness check failed: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function notAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  send(res, 405, 'method not allowed\n');
}

/**
 * The address the agent's HTTP server listens on: `--http-bind` when given (an IP address, else
 * `InvalidFlag`), else every interface (`0.0.0.0`) in a pod, where the kubelet's probes and the
 * Service connect to the pod's IP, and loopback (`127.0.0.1`) elsewhere, so that an agent run from
 * a workstation does not expose `/metrics` and `/webhook` to the network. A pod is told by
 * `KUBERNETES_SERVICE_HOST`, which the kubelet sets in every container. Pure.
 *
 * @example
 * httpBindOf(undefined, { KUBERNETES_SERVICE_HOST: '10.96.0.1' }); // '0.0.0.0'
 * httpBindOf('::', {}); // '::' (every interface, IPv6 too)
 */
export function httpBindOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag === undefined) return env.KUBERNETES_SERVICE_HOST ? '0.0.0.0' : '127.0.0.1';
  if (isIP(flag) === 0)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--http-bind',
      message: `not an IP address: ${JSON.stringify(flag.slice(0, 64))}`,
      fix: 'pass an IP address: 0.0.0.0 or :: (every interface), 127.0.0.1 or ::1 (this host only)',
    });
  return flag;
}
