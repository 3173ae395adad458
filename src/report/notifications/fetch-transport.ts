import type { Transport } from './http-request.js';
import { retryAfterMs } from './retry.js';

/**
 * The transport over Node's `fetch`. Redirects are not followed (a 3xx is a failed delivery): a
 * redirect could carry a forge token's header to another host. The response body is not read
 * (a hostile receiver writes what it likes there, as long as it likes): only the status counts.
 */
export const fetchTransport: Transport = {
  async send(request, signal) {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    await res.body?.cancel().catch(() => undefined);
    const after = retryAfterMs(res.headers.get('retry-after'), Date.now());
    return { status: res.status, ...(after !== undefined ? { retryAfterMs: after } : {}) };
  },
};
