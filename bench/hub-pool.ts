// The load generator's connections: N simulated members share one keep-alive HTTPS agent with a
// bounded number of sockets (one process, not one per member), each request still carrying its own
// member's bearer token, so the apiserver authenticates and authorizes every member on its own.
import { Agent, request as httpsRequest } from 'node:https';
import type { z } from 'zod';
import { ApiError } from '../src/cluster/api-error.js';
import type { KubeClient, RequestOpts } from '../src/cluster/client.js';
import { parseBody, parseStatus } from '../src/cluster/response-body.js';

/** The shared sockets to the hub. */
export class HubConnections {
  readonly agent: Agent;
  requests = 0;
  failures = 0;

  constructor(
    readonly server: string,
    ca: string,
    readonly maxSockets: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, ca });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** What the bench reads about each request: a member's report PATCH, when it was sent. */
export type RequestObserver = (method: string, path: string, body: unknown, sentAt: number) => void;

/**
 * A client for one member on the shared connections: `request` as `KubeClient.request` answers
 * (a JSON body checked by its schema; `ApiError` for a non-2xx answer), without retries: the
 * member's own timers try again. It is handed to the product's `LeaseStore` and `ReportWriter`,
 * which use `request` only.
 */
export function memberClient(
  connections: HubConnections,
  token: string,
  observe?: RequestObserver,
): KubeClient {
  const client = {
    server: connections.server,
    async request(method: string, path: string, opts: RequestOpts & { schema?: z.ZodType } = {}) {
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        'User-Agent': 'groundwork-hub-member',
      };
      if (payload !== undefined) {
        headers['Content-Type'] = opts.contentType ?? 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(payload));
      }
      const url = new URL(connections.server + path);
      for (const [k, v] of Object.entries(opts.query ?? {}))
        if (v !== undefined) url.searchParams.set(k, String(v));
      connections.requests++;
      observe?.(method, path, opts.body, Date.now());
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpsRequest(url, { method, headers, agent: connections.agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(payload);
      }).catch((err: unknown) => {
        connections.failures++;
        throw err;
      });
      if (status >= 200 && status < 300) return parseBody(text, opts.schema, `${method} ${path}`);
      connections.failures++;
      throw new ApiError({ status, method, path, body: parseStatus(text), text });
    },
    close() {},
  };
  // Only `request` (and `server`) is used by LeaseStore and ReportWriter.
  return client as unknown as KubeClient;
}
