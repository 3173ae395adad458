import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgeRepo, statusRequest } from '../../../src/report/notifications/forge.js';
import { fetchTransport } from '../../../src/report/notifications/fetch-transport.js';
import { Notifier } from '../../../src/report/notifications/notifier.js';
import { hasCode } from '../../../src/core/errors.js';
import { startForgeApi, type ForgeApi } from '../../harness/forge-api.js';

const SHA = 'a'.repeat(40);
const REV = `main@sha1:${SHA}`;
const TOKEN = 'ghp_secretTOKENvalue0123456789';

describe('forgeRepo', () => {
  it.each([
    [
      'https://github.com/acme/platform.git',
      {},
      { forge: 'github', apiUrl: 'https://api.github.com', path: 'acme/platform' },
    ],
    [
      'git@github.com:acme/platform.git',
      {},
      { forge: 'github', apiUrl: 'https://api.github.com', path: 'acme/platform' },
    ],
    [
      'ssh://git@gitlab.example:2222/acme/infra/platform.git',
      { forge: 'gitlab' as const },
      { forge: 'gitlab', apiUrl: 'https://gitlab.example/api/v4', path: 'acme/infra/platform' },
    ],
    [
      'https://gitlab.com/acme/infra/platform.git',
      {},
      { forge: 'gitlab', apiUrl: 'https://gitlab.com/api/v4', path: 'acme/infra/platform' },
    ],
    [
      'https://git.example.com/acme/platform',
      { forge: 'gitea' as const },
      { forge: 'gitea', apiUrl: 'https://git.example.com/api/v1', path: 'acme/platform' },
    ],
    [
      'https://ghe.example.com/acme/platform.git',
      { forge: 'github' as const },
      { forge: 'github', apiUrl: 'https://ghe.example.com/api/v3', path: 'acme/platform' },
    ],
    [
      'http://127.0.0.1:3000/acme/p.git',
      { forge: 'gitea' as const, apiUrl: 'http://127.0.0.1:3000/api/v1/' },
      { forge: 'gitea', apiUrl: 'http://127.0.0.1:3000/api/v1', path: 'acme/p' },
    ],
  ])('%s', (url, opts, want) => {
    expect(forgeRepo(url, opts)).toEqual(want);
  });

  it('refuses an unknown host or a path that is not owner/name, without the URL credentials', () => {
    for (const [url, opts] of [
      ['https://user:hunter2@git.example.com/acme/p.git', {}],
      ['https://github.com/acme.git', {}],
      ['https://github.com/a/b/c.git', {}],
    ] as const) {
      let err: unknown;
      try {
        forgeRepo(url, opts);
      } catch (e) {
        err = e;
      }
      expect(hasCode(err, 'UnknownForge'), url).toBe(true);
      expect(String(err)).not.toContain('hunter2');
    }
  });
});

describe('commit status requests against the documented APIs', () => {
  let api: ForgeApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  for (const forge of ['github', 'gitlab'] as const) {
    it(`${forge}: pending, success and failure follow the published schema`, async () => {
      api = await startForgeApi(forge, TOKEN);
      const repo = forgeRepo(`https://example.com/acme/platform.git`, { forge, apiUrl: api.apiUrl });
      const outcomes: string[] = [];
      const notifier = new Notifier({
        transport: fetchTransport,
        cluster: 'eu-1',
        overlay: 'staging',
        commitStatus: { repo, token: TOKEN, dashboardUrl: 'https://dash.example.com/staging' },
        events: {
          delivered: (t) => outcomes.push(`sent ${t}`),
          failed: (t, why) => outcomes.push(`failed ${t} ${why}`),
        },
      });
      // One at a time: a newer status for a commit replaces one still queued (delivery-queue.test.ts).
      const sent = (n: number) => vi.waitFor(() => expect(outcomes).toHaveLength(n), { timeout: 10_000 });
      notifier.notify({ type: 'fetched', revision: REV });
      await sent(1);
      notifier.notify({
        type: 'cycle-ended',
        revision: REV,
        good: true,
        suspended: false,
        health: { status: 'Healthy', reason: 'Ready' },
        drift: [],
        mode: 'self-heal',
      });
      await sent(2);
      notifier.notify({
        type: 'cycle-ended',
        revision: REV,
        good: false,
        suspended: false,
        failure: { reason: 'ApplyFailed', message: 'Deployment/x: Invalid' },
        drift: [],
        mode: 'self-heal',
      });
      await sent(3);
      await notifier.close();
      expect(outcomes).toEqual(['sent forge', 'sent forge', 'sent forge']);
      expect(api.requests.map((r) => r.problems)).toEqual([[], [], []]);
      const states = api.requests.map((r) => (r.body as { state: string }).state);
      expect(states).toEqual(
        forge === 'github' ? ['pending', 'success', 'failure'] : ['pending', 'success', 'failed'],
      );
      const context = forge === 'github' ? 'context' : 'name';
      expect(api.requests.map((r) => (r.body as Record<string, string>)[context])).toEqual(
        Array(3).fill('groundwork/staging/eu-1'),
      );
      expect(api.requests[2]!.body).toMatchObject({
        description: 'ApplyFailed: Deployment/x: Invalid',
        target_url: 'https://dash.example.com/staging',
      });
      expect(api.requests[0]!.path).toBe(
        forge === 'github'
          ? `/repos/acme/platform/statuses/${SHA}`
          : `/projects/acme%2Fplatform/statuses/${SHA}`,
      );
    });
  }

  it('a refused token is given up at once (no retry), reported without the token', async () => {
    api = await startForgeApi('github', 'another-token');
    const failures: string[] = [];
    const notifier = new Notifier({
      transport: fetchTransport,
      cluster: 'c',
      overlay: 'o',
      commitStatus: {
        repo: forgeRepo('https://github.com/acme/p.git', { apiUrl: api.apiUrl }),
        token: TOKEN,
      },
      events: {
        failed: (t, why) => failures.push(`${t}: ${why}`),
        retrying: (t, why) => failures.push(`retry ${t} ${why}`),
      },
    });
    notifier.notify({ type: 'fetched', revision: REV });
    await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 10_000 });
    await notifier.close();
    expect(failures).toEqual(['forge: HTTP 401']);
    expect(api.requests).toHaveLength(1);
    expect(JSON.stringify(failures)).not.toContain(TOKEN);
  });

  it('builds the token into a header only (never the URL or body)', () => {
    for (const forge of ['github', 'gitlab', 'gitea'] as const) {
      const req = statusRequest(
        forgeRepo('https://h.example/a/b.git', { forge }),
        { sha: SHA, state: 'pending', description: 'd', context: 'c' },
        TOKEN,
      );
      expect(req.url + req.body).not.toContain(TOKEN);
      expect(Object.values(req.headers).join(' ')).toContain(TOKEN);
    }
  });
});
