// A real OCI registry for tests: distribution v3 (`toolPath('registry')`) on 127.0.0.1, storage on
// the filesystem of a temp dir, deletes enabled; charts pushed with the real `helm push --plain-http`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolPath } from './tools.js';

const run = promisify(execFile);

export interface OciRegistry {
  /** `127.0.0.1:<port>` */
  readonly host: string;
  /** `oci://127.0.0.1:<port>` */
  readonly url: string;
  /** `helm push <archive> <url>/<path> --plain-http`; returns the manifest digest helm printed. */
  pushChart(archive: string, path: string): Promise<string>;
  /** DELETE of a manifest by digest (the registry then answers 404 for it and its tags). */
  deleteManifest(repository: string, digest: string): Promise<void>;
  /** Stops the process (its PID only); the data stays until `remove`. */
  stop(): Promise<void>;
  /** Stops it and deletes its directory. */
  remove(): Promise<void>;
}

/**
 * Starts the registry with a config file in a fresh temp dir and waits until `/v2/` answers.
 * Its environment holds only `PATH`, `HOME` (the temp dir) and tracing turned off.
 */
export async function startOciRegistry(): Promise<OciRegistry> {
  const registry = await toolPath('registry');
  const helm = await toolPath('helm');
  const dir = mkdtempSync(join(tmpdir(), 'gw-oci-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: ${host}`,
      `  secret: ${randomBytes(16).toString('hex')}`,
      '',
    ].join('\n'),
  );
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: dir,
    OTEL_SDK_DISABLED: 'true',
    OTEL_TRACES_EXPORTER: 'none',
  };
  const child: ChildProcess = spawn(registry, ['serve', config], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-10_000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`registry exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    const ok = await fetch(`http://${host}/v2/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`registry not ready in 30 s: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // helm writes its registry config and cache under HOME/XDG: a directory of its own.
  const helmHome = join(dir, 'helm-home');
  mkdirSync(helmHome);
  const helmEnv = {
    PATH: '/usr/bin:/bin',
    HOME: helmHome,
    XDG_CONFIG_HOME: join(helmHome, 'config'),
    XDG_CACHE_HOME: join(helmHome, 'cache'),
    XDG_DATA_HOME: join(helmHome, 'data'),
  };
  return {
    host,
    url: `oci://${host}`,
    async pushChart(archive, path) {
      const out = await run(helm, ['push', archive, `oci://${host}/${path}`, '--plain-http'], {
        env: helmEnv,
        timeout: 60_000,
      });
      const digest = /Digest: (sha256:[0-9a-f]{64})/.exec(`${out.stdout}\n${out.stderr}`)?.[1];
      if (!digest) throw new Error(`helm push printed no digest: ${out.stdout} ${out.stderr}`);
      return digest;
    },
    async deleteManifest(repository, digest) {
      const res = await fetch(`http://${host}/v2/${repository}/manifests/${digest}`, { method: 'DELETE' });
      if (res.status !== 202) throw new Error(`DELETE manifest: HTTP ${res.status}`);
    },
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port free on 127.0.0.1 now (the kernel's choice, released again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
