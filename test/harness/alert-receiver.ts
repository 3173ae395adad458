import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One alert a receiver got: its parsed body, whether its HMAC verified, and its headers of note. */
export interface ReceivedAlert {
  readonly body: Record<string, unknown>;
  readonly verified: boolean;
  readonly event: string | undefined;
  readonly delivery: string | undefined;
}

export interface AlertReceiver {
  readonly url: string;
  readonly received: ReceivedAlert[];
  /** Requests that arrived, answered or not (a hanging receiver counts them too). */
  readonly arrivals: number;
  close(): Promise<void>;
}

/**
 * A loopback webhook receiver as a user would write one: it checks `X-Groundwork-Signature`
 * (`sha256=<hex>` of the raw body under `key`) in constant time and records what came.
 * `mode`: `ok` answers 200, `fail` 500, `hang` never answers (until closed).
 */
export async function startAlertReceiver(
  key: string,
  mode: 'ok' | 'fail' | 'hang' = 'ok',
): Promise<AlertReceiver> {
  const received: ReceivedAlert[] = [];
  const hanging: ServerResponse[] = [];
  let arrivals = 0;
  const server = createServer((req, res) => {
    arrivals++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const want = Buffer.from(`sha256=${createHmac('sha256', key).update(raw).digest('hex')}`);
      const got = Buffer.from(String(req.headers['x-groundwork-signature'] ?? ''));
      const verified = got.length === want.length && timingSafeEqual(got, want);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        body = { unparsed: raw.toString('utf8') };
      }
      received.push({
        body,
        verified,
        event: req.headers['x-groundwork-event'] as string | undefined,
        delivery: req.headers['x-groundwork-delivery'] as string | undefined,
      });
      if (mode === 'hang') hanging.push(res);
      else res.writeHead(mode === 'ok' ? 200 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    get arrivals() {
      return arrivals;
    },
    close: () =>
      new Promise((resolve) => {
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
