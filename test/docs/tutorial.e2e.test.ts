import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedRevision } from '../harness/agent-run.js';
import { BIN } from '../harness/cli.js';
import { packedTarball } from '../harness/packed-tarball.js';
import { useCluster } from '../harness/cluster.js';

// The README's tutorial, run as written, in order, by a shell in a fresh directory: every command
// of its steps is either run here or named below with the reason the test machine stands in for it.
// Step 4's local cluster is the run's control plane (its kubeconfig is what `cluster kubeconfig`
// prints); the agent and `sync status` get a namespace of this test's own, and the agent a free
// port and a short interval, so the test shares the control plane with nothing.

const root = fileURLToPath(new URL('../..', import.meta.url));
const cluster = useCluster({ namespacePrefix: 'gw-tutorial' });
const home = mkdtempSync(join(tmpdir(), 'gw-tutorial-'));
// Retried: a CLI process of the tutorial may still be writing its cache there as it exits (ENOTEMPTY
// once in CI).
afterAll(() => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

// The README's Install section, on this checkout: the tarball `npm pack` makes, in ~/groundwork of
// the test's home directory, and a `groundwork` command on PATH (the run's build of this checkout,
// `harness/cli-build.ts`, as the global install puts the package's there).
beforeAll(async () => {
  mkdirSync(join(home, 'groundwork'));
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'bin', 'groundwork'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(home, 'bin', 'groundwork'), 0o755);
  await packedTarball(join(home, 'groundwork'));
}, 600_000);

/** The code spans of the README's "Tutorial" section that are commands, in reading order. */
function tutorialCommands(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## Tutorial[^\n]*\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  return new MarkdownIt()
    .parse(section, {})
    .flatMap((t) => t.children ?? [])
    .filter((t) => t.type === 'code_inline')
    .map((t) => t.content.replace(/\s+/g, ' ').trim())
    .filter((c) => /^(npx |groundwork |git |cd |export |kubectl |[A-Z_]+=)/.test(c));
}

/** The commands this machine cannot run as written, and what stands in for them. */
const STAND_INS: Record<string, string> = {
  'npx groundwork cluster up --openshift':
    'the run control plane (built and started by the e2e global setup)',
  'export KUBECONFIG=$(npx groundwork cluster kubeconfig)':
    "KUBECONFIG is the run control plane's kubeconfig",
  'kubectl edit': 'interactive; test/cli/out-of-band.e2e.test.ts covers the agent restoring an edited object',
  'npx groundwork cluster down': 'no cluster was started',
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: home,
  PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}`,
  // npm's cache of the machine: the scaffold's TypeScript comes from it, not the network.
  npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
  KUBECONFIG: cluster.kubeconfig,
  GROUNDWORK_CACHE_DIR: join(home, 'cache'),
  GIT_AUTHOR_NAME: 'Tutorial',
  GIT_AUTHOR_EMAIL: 'tutorial@example.com',
  GIT_COMMITTER_NAME: 'Tutorial',
  GIT_COMMITTER_EMAIL: 'tutorial@example.com',
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  ...extra,
});

/** `sh -c command` in `cwd`, as a user's terminal runs it. */
function sh(command: string, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      'sh',
      ['-c', command],
      { cwd, env: env(), maxBuffer: 1 << 26, timeout: 600_000 },
      (_e, stdout, stderr) => resolve({ code: child.exitCode ?? 1, stdout, stderr }),
    );
  });
}

/** `sh -c command` left running (its own process group); resolves once `ready` matches its output. */
function background(
  command: string,
  cwd: string,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn('sh', ['-c', command], {
    cwd,
    env: env(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: not ready in 120 s: ${output}`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${command} exited ${code}: ${output}`)));
    const check = () => {
      if (!ready.test(output)) return;
      clearTimeout(timer);
      resolve({ child, output: () => output });
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
  });
}

function stop(child: ChildProcess | undefined): void {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

describe("the README's tutorial", () => {
  it('runs as written, step by step, against the local control plane', async () => {
    const commands = tutorialCommands();
    const run = async (command: string, cwd: string, expectCode: number): Promise<Run> => {
      const result = await sh(command, cwd);
      expect(result.code, `${command}\n${result.stdout}\n${result.stderr}`).toBe(expectCode);
      return result;
    };
    const next = (() => {
      let i = 0;
      /** The tutorial's next command, which must start with `prefix` (the order is the README's). */
      return (prefix: string): string => {
        while (i < commands.length && Object.keys(STAND_INS).some((s) => commands[i]!.startsWith(s))) i++;
        const command = commands[i++];
        expect(command, `the tutorial's next command after ${i - 1}`).toMatch(
          new RegExp(`^${prefix.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}`),
        );
        return command!;
      };
    })();
    const platform = join(home, 'my-platform');

    // 1. init, depending on the packed tarball (copied to vendor/).
    await run(next('groundwork init my-platform --groundwork-version ~/groundwork/'), home, 0);

    // 2. its dependencies.
    await run(next('cd my-platform && npm install'), home, 0);

    // 3. synth prints the dev overlay.
    const synth = await run(next('npx groundwork synth'), platform, 0);
    expect(synth.stdout).toMatch(/kind: ConfigMap\n(.*\n)*? {2}name: platform-info/);

    // 4. the local cluster: the run's control plane (STAND_INS). 5. plan: changes, exit 1.
    const plan = await run(next('npx groundwork plan'), platform, 1);
    expect(plan.stdout).toContain('platform-info');

    // 6. commit.
    await run(next('git init -b main && git add -A && git commit -m'), platform, 0);
    const revision = (await run('git rev-parse HEAD', platform, 0)).stdout.trim();

    // 7. serve it; 8. the agent against it, until it applied the commit.
    let serve: ChildProcess | undefined;
    let agent: ChildProcess | undefined;
    try {
      const served = await background(next('npx groundwork git serve'), platform, /Ctrl-C stops it\./);
      serve = served.child;
      const printed = served.output();
      const url = /--repo (\S+)/.exec(printed)?.[1];
      const token = /GROUNDWORK_GIT_TOKEN=(\S+)/.exec(printed)?.[1];
      expect(url, printed).toBeTruthy();
      expect(token, printed).toBeTruthy();
      const agentCommand = next('GROUNDWORK_GIT_TOKEN=<token> npx groundwork agent --repo <url>')
        .replace('<token>', token!)
        .replace('<url>', url!);
      const started = await background(
        `${agentCommand} --namespace ${cluster.namespace} --http-port 0 --interval 1s`,
        platform,
        /./,
      );
      agent = started.child;
      await appliedRevision(cluster, revision, `the agent applied ${revision} (${started.output()})`).catch(
        (e: unknown) => {
          throw new Error(`${String(e)}\n${started.output()}`);
        },
      );

      const info = await cluster.client.request<{ data: Record<string, string> }>(
        'GET',
        '/api/v1/namespaces/platform-config/configmaps/platform-info',
      );
      expect(info.data).toMatchObject({ environment: 'dev', managedBy: 'groundwork' });

      // 9. its status, and drift: none right after the agent applied.
      const status = await run(
        `${next('npx groundwork sync status')} --namespace ${cluster.namespace}`,
        platform,
        0,
      );
      expect(status.stdout).toContain(revision.slice(0, 12));
      await run(next('npx groundwork drift'), platform, 0);

      // 10. what bootstrap installs, printed; "your forge" is the served repository.
      const forge = 'https://git.example.com/my-platform.git';
      const bootstrap = next(`npx groundwork bootstrap --repo ${forge} --overlay prod --print`);
      const printed10 = await run(
        `GROUNDWORK_GIT_TOKEN=${token!} ${bootstrap.replace(forge, url!)}`,
        platform,
        0,
      );
      expect(printed10.stdout).toMatch(/kind: Deployment/);
      expect(printed10.stdout).toMatch(/kind: NetworkPolicy/);
    } finally {
      stop(agent);
      stop(serve);
      // What the scaffold applied outside the test's namespace.
      for (const ns of ['platform-config', 'cert-manager-operator'])
        await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
    }

    // Every command of the tutorial was run or stood in for.
    expect(() => next('')).toThrow();
  }, 900_000);
});
