import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATFORM_MAIN } from '../harness/agent-repo.js';
import { appliedRevision } from '../harness/agent-run.js';
import { BIN } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { git } from '../source/git.js';
import { startServe } from './git-serve-process.js';

// The laptop recipe of docs/repositories.md, as a user runs it: a platform repository on disk,
// `groundwork git serve` in it, and `groundwork agent --repo <printed URL>` with the printed token
// against the real control plane. Both are the real CLI in child processes.

const cluster = useCluster({ namespacePrefix: 'gw-serve' });
const root = mkdtempSync(join(tmpdir(), 'gw-serve-e2e-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('groundwork git serve with groundwork agent', () => {
  it('applies the served repository, then a new commit', async () => {
    const ns = cluster.namespace;
    const work = join(root, 'my-platform');
    mkdirSync(join(work, 'platform'), { recursive: true });
    mkdirSync(join(work, 'overlays'));
    git(root, 'init', '-q', work);
    const write = (items: Record<string, string>) => {
      writeFileSync(
        join(work, 'groundwork.yaml'),
        `name: laptop${ns.slice(-6)}\nentry: platform/main.ts\noverlays: overlays\ndefaultOverlay: test\n`,
      );
      writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(work, 'platform', 'main.ts'), PLATFORM_MAIN);
      writeFileSync(join(work, 'overlays', 'test.yaml'), JSON.stringify({ namespace: ns, items }));
      git(work, 'add', '.');
      git(work, 'commit', '-qm', 'platform');
      return git(work, 'rev-parse', 'HEAD');
    };
    const first = write({ hello: 'laptop' });
    const serve = await startServe([], work);
    const agent = spawn(
      process.execPath,
      [
        BIN,
        'agent',
        '--repo',
        serve.url,
        '--overlay',
        'test',
        '--kubeconfig',
        cluster.kubeconfig,
        '--namespace',
        ns,
        '--interval',
        '1s',
        '--http-port',
        '0',
      ],
      {
        env: { ...process.env, GROUNDWORK_GIT_TOKEN: serve.token, GROUNDWORK_CACHE_DIR: join(root, 'cache') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    agent.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    agent.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<number | null>((r) => agent.once('exit', (code) => r(code)));
    try {
      await appliedRevision(cluster, first, 'the served repository applied by the agent');
      const cm = await cluster.client.request<{ data: { value: string } }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps/hello`,
      );
      expect(cm.data.value).toBe('laptop');
      const second = write({ hello: 'laptop', again: 'yes' });
      await appliedRevision(cluster, second, 'a new commit in the work tree applied');
      expect(log).not.toContain(serve.token!);
    } finally {
      agent.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await serve.interrupt()).toBe(0);
    }
  });
});
