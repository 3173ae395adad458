import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { startUi as startUiProcess } from '../harness/ui-process.js';

/**
 * `groundwork ui` as users run it: the real CLI process against the real control plane's
 * kubeconfig, its printed URL, the token handshake, and Ctrl-C.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-proc' });
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

const startUi = (args: string[]) => startUiProcess(args, { track: (child) => children.push(child) });

describe('groundwork ui (the process)', () => {
  it('prints a URL on 127.0.0.1 whose token opens the pages, refuses requests without it, and exits 0 on Ctrl-C', async () => {
    const { child, url, exited } = await startUi([
      '--kubeconfig',
      cluster.kubeconfig,
      '--namespace',
      cluster.namespace,
      '--port',
      '0',
    ]);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    const token = url.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const base = `http://127.0.0.1:${url.port}`;

    // Without the token: refused, and the page says nothing of the cluster.
    const bare = await fetch(`${base}/`);
    expect(bare.status).toBe(401);
    expect(await bare.text()).not.toContain('PlatformSync found');
    expect((await fetch(`${base}/?token=${'x'.repeat(43)}`, { redirect: 'manual' })).status).toBe(403);
    expect((await fetch(`${base}/objects`, { headers: { authorization: 'token wrong' } })).status).toBe(403);

    // The printed URL: a redirect setting the session cookie, then the page.
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toBe(`groundwork-ui-${url.port}=${token}`);
    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<h1>Overview</h1>');
    // An empty namespace: the empty state, not an error.
    expect(html).toContain('No PlatformSync found');
    expect((await fetch(`${base}/objects`, { headers: { authorization: `token ${token}` } })).status).toBe(
      200,
    );

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/`)).rejects.toThrow();
  });

  it.each([
    [['--port', '70000'], '--port: not a port number: "70000"'],
    [['--port', '-1'], '--port'],
    [['--kubeconfig', '/nonexistent/groundwork-kubeconfig'], 'kubeconfig file not found'],
    [['--namespace', 'Not_A<Name>'], '--namespace: not a Kubernetes object name'],
  ])('hostile flags %j: a clear error and exit 2, no server', async (args, message) => {
    const { code, stdout, stderr } = await groundwork(['ui', ...args], { timeoutMs: 60_000 });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('fix:');
    expect(stdout).not.toContain('Dashboard (read-only)');
    // The rejected value is not echoed beyond what names it.
    expect(stderr).not.toContain('<Name>');
  });
});
