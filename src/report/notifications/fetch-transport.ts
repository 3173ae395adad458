import { checkedFetch } from '../../core/checked-fetch.js';
import type { OutboundPolicy } from '../../core/outbound-url.js';
import type { Transport } from './http-request.js';
import { retryAfterMs } from './retry.js';

/**
 * The transport over `checkedFetch`: the URL's host is resolved and every address checked
 * (`UrlNotAllowed` for loopback, link-local, metadata addresses and their IPv6 forms; nothing is
 * sent), and the request goes to the checked address. Redirects are not followed (a 3xx is a
 * failed delivery): a redirect could carry a forge token's header to another host, or lead to an
 * address the check refused. The response body is not read (a hostile receiver writes what it
 * likes there, as long as it likes): only the status counts.
 */
export function fetchTransportWith(policy?: OutboundPolicy): Transport {
  return {
    async send(request, signal) {
      const res = await checkedFetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
        ...(policy ? { policy } : {}),
      });
      await res.body?.cancel().catch(() => undefined);
      const after = retryAfterMs(res.headers.get('retry-after'), Date.now());
      return { status: res.status, ...(after !== undefined ? { retryAfterMs: after } : {}) };
    },
  };
}

/** `fetchTransportWith` this process's policy (`outboundPolicy`). */
export const fetchTransport: Transport = fetchTransportWith();
