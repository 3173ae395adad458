import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dashboardHandler, type DashboardReader } from './dashboard-handler.js';
import type { FleetReader } from './fleet-state.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { StreamLimitsOptions } from './stream-limits.js';
import { tokenAuth } from './token-auth.js';

export interface DashboardServerOptions {
  source: DashboardReader;
  /** The token the printed URL carries (`newToken()`). */
  token: string;
  /** @default 0 (a free port) */
  port?: number;
  /** The Fleet page's source; without it the dashboard has no Fleet page. */
  fleet?: FleetReader;
  /** Open event streams: per reader and in all. @default 8 and 100 (`dashboardHandler`) */
  streams?: StreamLimitsOptions;
}

/** A running laptop dashboard: its URL with the token (print it once) and how to stop it. */
export interface RunningDashboard {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the dashboard on 127.0.0.1 only (never another interface: other machines cannot reach it)
 * behind `tokenAuth`; other local users cannot read it without the token, which only the printed URL
 * holds. Paths the dashboard does not serve get 404.
 */
export async function startDashboardServer(opts: DashboardServerOptions): Promise<RunningDashboard> {
  let port = 0;
  const handle = dashboardHandler({
    source: opts.source,
    auth: tokenAuth({ token: opts.token, port: () => port }),
    ...(opts.fleet ? { fleet: opts.fleet } : {}),
    ...(opts.streams ? { streams: opts.streams } : {}),
  });
  const server: Server = createServer((req, res) => {
    handle(req, res)
      .then((served) => {
        if (served) return;
        res.writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('not found\n');
      })
      .catch(() => {
        if (!res.headersSent)
          res.writeHead(500, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('internal error\n');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${opts.token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
