import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventually, useCluster } from '../harness/cluster.js';
import { BIN } from '../harness/cli.js';

const bin = BIN;
const fastClock = fileURLToPath(new URL('../harness/fast-clock.mjs', import.meta.url));
const cluster = useCluster({ namespacePrefix: 'gw-terminal' });

/**
 * A fresh platform repository (the `init` scaffold: a namespace, an operator, a ConfigMap) with
 * namespaces of its own, so every test creates its objects on the shared cluster.
 */
async function scaffold(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'gw-terminal-')), 'platform');
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [bin, 'init', dir], (err) => (err ? reject(err) : resolve())),
  );
  const suffix = Math.random().toString(36).slice(2, 8);
  const main = join(dir, 'platform', 'main.ts');
  writeFileSync(
    main,
    readFileSync(main, 'utf8')
      .replaceAll("'platform-config'", `'platform-config-${suffix}'`)
      .replace("namespace: 'cert-manager-operator'", `namespace: 'cert-manager-${suffix}'`),
  );
  return dir;
}

/**
 * A CatalogSource in the test's namespace with a status, as OLM writes one, served by nothing: apply
 * takes OLM as running (see olmNotServed) and waits for the operator's CSV, which nobody installs.
 */
async function olmSeemsToRun(): Promise<void> {
  const path = `/apis/operators.coreos.com/v1alpha1/namespaces/${cluster.namespace}/catalogsources`;
  const body = {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name: 'silent', namespace: cluster.namespace },
    spec: { sourceType: 'grpc', image: 'registry.invalid/none:1' },
  };
  await cluster.client.request('POST', path, { body }).catch(() => undefined); // exists: fine
  await cluster.client.request('PATCH', `${path}/silent/status`, {
    body: { status: { connectionState: { lastObservedState: 'TRANSIENT_FAILURE' } } },
    contentType: 'application/merge-patch+json',
  });
}

/** Seconds a progress line says its wait has lasted (`waiting 12.5s for ...`, `waiting 1m05s for ...`). */
function elapsedOf(line: string): number {
  const [, m, s] = /waiting (?:(\d+)m)?([\d.]+)s for/.exec(line)!;
  return Number(m ?? 0) * 60 + Number(s);
}

/** Runs `groundwork <args>` on a pseudo-terminal of the given shape (script(1)), logging to a file. */
function onTerminal(shape: string, args: string[], cwd: string, log: string) {
  const command = `stty ${shape}; exec "${process.execPath}" "${bin}" ${args.join(' ')}`;
  const child = spawn('script', ['-qfec', command, log], {
    cwd,
    env: { ...process.env, KUBECONFIG: cluster.kubeconfig, TERM: 'xterm-256color', CI: '' },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

describe('progress output in every terminal shape', () => {
  it.each(['cols 0 rows 0', 'cols 1 rows 1', 'cols 120 rows 40'])(
    'apply --no-wait on a terminal with %s ends, with bounded output',
    async (shape) => {
      const repo = await scaffold();
      const log = join(repo, '..', 'terminal.log');
      const run = onTerminal(shape, ['apply', '--no-wait'], repo, log);
      const code = await run.exited;
      expect(code).toBe(0);
      // A runaway spinner wrote hundreds of megabytes here; a whole apply is a few kilobytes.
      expect(statSync(log).size).toBeLessThan(64 * 1024);
      const text = readFileSync(log, 'utf8');
      expect(text).toMatch(/[1-9]\d* created/);
      // --no-wait checks the operator's Subscription once and says so; it promises no wait.
      expect(text).toContain('not ready yet, not waited for');
      expect(text).not.toMatch(/waiting|timeout 5m/);
    },
  );

  it('SIGTERM ends an apply that is waiting, on a 0-column terminal', async () => {
    const repo = await scaffold();
    await olmSeemsToRun();
    const log = join(repo, '..', 'terminal.log');
    // Nothing plays OLM here: the wait for the operator's CSV would last the whole timeout.
    const run = onTerminal('cols 0 rows 0', ['apply', '--timeout', '10m'], repo, log);
    await eventually(
      async () => (readFileSync(log, 'utf8').includes('waiting') ? true : undefined),
      60_000,
      'apply waiting for the CSV',
    );
    const node = await new Promise<number>((resolve, reject) =>
      execFile('pgrep', ['-P', String(run.child.pid)], (err, out) =>
        err ? reject(err) : resolve(Number(out.trim())),
      ),
    );
    process.kill(node, 'SIGTERM');
    const code = await run.exited;
    expect(code).not.toBeNull();
    expect(statSync(log).size).toBeLessThan(64 * 1024);
  });

  it('without a terminal, a long wait prints one progress line per interval, and SIGTERM ends it', async () => {
    const repo = await scaffold();
    await olmSeemsToRun();
    // The process's clock runs ten times as fast (test/harness/fast-clock.mjs): the 30 s interval of
    // plain progress lines passes in 3 s, and the wait reports progress at each of its polls.
    const child = spawn(process.execPath, ['--import', fastClock, bin, 'apply', '--timeout', '10m'], {
      cwd: repo,
      env: { ...process.env, KUBECONFIG: cluster.kubeconfig, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The positive signal: the second progress line of the wait, one interval after the first.
    const waits = await eventually(
      async () => {
        const lines = stderr.match(/^.*waiting \S+ for \d+ item.*$/gm) ?? [];
        return lines.length >= 2 ? lines : undefined;
      },
      60_000,
      'two progress lines of the wait',
    );
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).not.toBeNull();
    // Within the interval the repeated "waiting Ns for ..." lines collapse: the second line comes
    // only after it (by the wait's own clock), and counts the updates it held back.
    const [first, second] = waits.map(elapsedOf);
    expect(second! - first!).toBeGreaterThanOrEqual(29);
    expect(Number(/\(\+(\d+) update\(s\)\)/.exec(waits[1]!)?.[1])).toBeGreaterThanOrEqual(1);
  });
});
