import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/cluster/api-error.js';
import type { KubeClient } from '../../src/cluster/client.js';
import { HUB_API_VERSION, HUB_NAMESPACE, TOKEN_SECRET_TYPE } from '../../src/hub/hub-names.js';
import { RegistrationController } from '../../src/hub/registration-controller.js';
import {
  newRegistrationToken,
  registrationName,
  tokenHash,
  tokenSecretName,
} from '../../src/hub/registration-token.js';
import { newRegistrationKey } from '../../src/hub/sealed-credentials.js';

// The controller against an in-memory hub (fault injection: every request takes a few ms, so
// registrations overlap; a conditional write with a stale resourceVersion is a 409, as the
// apiserver answers it). The real apiserver path is hub-registration.e2e.test.ts.

const b64 = (s: string) => Buffer.from(s).toString('base64');
const silent = { info: () => undefined, warn: () => undefined };

class MemoryHub {
  readonly secrets = new Map<string, { rv: number; data: Record<string, string> }>();
  readonly registrations = new Map<string, { rv: number; spec: object; status?: { phase: string } }>();
  inFlight = 0;
  peak = 0;
  spent = 0;
  memberTokens = 0;
  statusWrites = 0;
  private rv = 10;

  client(): KubeClient {
    return {
      request: (m: string, p: string, o: Opts = {}) => this.request(m, p, o),
    } as unknown as KubeClient;
  }

  async token(member: string): Promise<{ token: string; name: string; recipient: string }> {
    const { id, token } = newRegistrationToken();
    this.secrets.set(tokenSecretName(id), {
      rv: ++this.rv,
      data: {
        hash: tokenHash(token),
        member,
        labels: '{}',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        used: 'false',
      },
    });
    const { recipient } = await newRegistrationKey();
    const name = registrationName(token);
    this.registrations.set(name, {
      rv: ++this.rv,
      spec: { member, token, recipient, agentVersion: '1.0.0' },
    });
    return { token, name, recipient };
  }

  private async request(method: string, path: string, opts: Opts): Promise<unknown> {
    // Requests of registrations being answered (the resync's LISTs are not counted).
    const answering = !(method === 'GET' && /\/(secrets|memberregistrations)$/.test(path));
    if (answering) this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, 3));
      return this.answer(method, path, opts);
    } finally {
      if (answering) this.inFlight--;
    }
  }

  private answer(method: string, path: string, opts: Opts): unknown {
    const conflict = () =>
      new ApiError({ status: 409, method, path, body: { reason: 'Conflict' }, text: 'conflict' });
    const secret = /\/secrets\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && path.endsWith('/memberregistrations'))
      return {
        metadata: { resourceVersion: String(this.rv) },
        items: [...this.registrations].map(([name, r]) => ({
          apiVersion: HUB_API_VERSION,
          kind: 'MemberRegistration',
          metadata: { name, namespace: HUB_NAMESPACE, resourceVersion: String(r.rv) },
          spec: r.spec,
          ...(r.status ? { status: r.status } : {}),
        })),
      };
    if (method === 'GET' && path.endsWith('/secrets')) return { items: [] };
    if (secret && method === 'GET') {
      const s = this.secrets.get(secret)!;
      const data = Object.fromEntries(Object.entries(s.data).map(([k, v]) => [k, b64(v)]));
      return { metadata: { name: secret, resourceVersion: String(s.rv) }, type: TOKEN_SECRET_TYPE, data };
    }
    if (secret && method === 'PATCH') {
      const s = this.secrets.get(secret)!;
      const body = opts.body as { metadata: { resourceVersion: string }; stringData: Record<string, string> };
      if (body.metadata.resourceVersion !== String(s.rv)) throw conflict();
      Object.assign(s.data, body.stringData);
      s.rv = ++this.rv;
      this.spent++;
      return {};
    }
    if (method === 'POST' && path.endsWith('/token')) {
      this.memberTokens++;
      return {
        status: { token: `member-token-${this.memberTokens}`, expirationTimestamp: '2026-11-29T00:00:00Z' },
      };
    }
    if (method === 'POST') return {};
    const reg = /memberregistrations\/([^/]+)\/status$/.exec(path)?.[1];
    if (reg && method === 'PATCH') {
      const r = this.registrations.get(reg)!;
      const body = opts.body as { metadata?: { resourceVersion?: string }; status: { phase: string } };
      if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== String(r.rv)) throw conflict();
      r.status = body.status;
      r.rv = ++this.rv;
      this.statusWrites++;
      return {};
    }
    throw new Error(`unexpected ${method} ${path}`);
  }
}
type Opts = { body?: unknown };

describe('RegistrationController answers registrations several at a time', () => {
  it('answers every registration, never more than `concurrency` at once', async () => {
    const hub = new MemoryHub();
    for (let i = 0; i < 12; i++) await hub.token(`m-${i}`);
    const controller = new RegistrationController(hub.client(), {
      namespace: HUB_NAMESPACE,
      log: silent,
      concurrency: 4,
    });
    await controller.resync();
    await controller.idle();
    expect([...hub.registrations.values()].map((r) => r.status?.phase)).toEqual(Array(12).fill('Accepted'));
    expect(controller.decided).toBe(12);
    // Each registration is a sequence of requests: at most one request of each in flight.
    expect(hub.peak).toBe(4);
    expect(hub.spent).toBe(12);
  });

  it('a token presented to two controllers at once is spent once and answered once', async () => {
    const hub = new MemoryHub();
    const { name } = await hub.token('edge-1');
    const controllers = [1, 2].map(
      () =>
        new RegistrationController(hub.client(), { namespace: HUB_NAMESPACE, log: silent, concurrency: 8 }),
    );
    await Promise.all(controllers.map((c) => c.resync()));
    await Promise.all(controllers.map((c) => c.idle()));
    expect(hub.spent).toBe(1);
    expect(hub.statusWrites).toBe(1);
    expect(hub.registrations.get(name)?.status?.phase).toBe('Accepted');
    expect(controllers[0]!.decided + controllers[1]!.decided).toBe(1);
    expect(hub.secrets.values().next().value?.data.used).toBe('true');
  });

  it('the same registration seen twice by one controller (watch and resync) is answered once', async () => {
    const hub = new MemoryHub();
    await hub.token('edge-2');
    const controller = new RegistrationController(hub.client(), { namespace: HUB_NAMESPACE, log: silent });
    await Promise.all([controller.resync(), controller.resync()]);
    await controller.idle();
    expect(hub.spent).toBe(1);
    expect(hub.memberTokens).toBe(1);
    expect(hub.statusWrites).toBe(1);
  });
});
