// Where the machine cannot isolate the renderer (not root, no user namespaces: a laptop or a CI
// container without them), Groundwork refuses to render a repository rather than run its content
// beside the caller's credentials, unless the user says the repository is trusted. Run as the real
// CLI under another, unprivileged user, with a PATH that has no unshare.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../harness/cli.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { platformDir } from '../harness/platform-dir.js';

const NOBODY = 65534;

const PLATFORM = configMapPlatform('');

/** Makes `dir` and everything under it readable by every user (the platform is written by root). */
function readableByAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readableByAll(path);
    else chmodSync(path, 0o644);
  }
}

/** `groundwork <args>` as uid 65534 (`setpriv`), with a PATH that holds no util-linux programs. */
function asNobody(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const cache = mkdtempSync(join(tmpdir(), 'gw-nobody-cache-'));
  chmodSync(cache, 0o777);
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      '/usr/bin/setpriv',
      [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', process.execPath, BIN, ...args],
      {
        cwd: '/',
        env: { PATH: '/nonexistent', HOME: cache, TMPDIR: tmpdir(), GROUNDWORK_CACHE_DIR: cache, ...env },
      },
      (_err, stdout, stderr) => resolve({ code: child.exitCode ?? 1, stdout, stderr }),
    );
  });
}

describe('not root, no user namespaces: the renderer cannot be isolated', () => {
  beforeAll(async () => {
    // Otherwise every case fails on Node's MODULE_NOT_FOUND instead of on what it tests.
    const probe = await asNobody(['--version']);
    if (probe.code !== 0)
      throw new Error(
        `uid ${NOBODY} cannot run ${BIN} (is a directory above this checkout not readable by others?): ${probe.stderr}`,
      );
  });

  it('groundwork synth refuses with RenderIsolationUnavailable, says how to fix it, and renders nothing', async () => {
    expect(process.getuid?.()).toBe(0); // setpriv to another user needs root
    const dir = platformDir(PLATFORM);
    readableByAll(dir);
    const result = await asNobody(['synth', '--dir', dir]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('cannot isolate the renderer');
    expect(result.stderr).toContain(
      'unprivileged user namespaces are not allowed here (unshare, setpriv, mount, chroot not found on PATH), and this process is not root',
    );
    expect(result.stderr).toContain('--trust-repository');
    expect(result.stdout).not.toContain('kind: ConfigMap');
  });

  it('GROUNDWORK_RENDERER_POD=1 outside groundwork renderer does not switch synth to the unisolated pod mode', async () => {
    const dir = platformDir(PLATFORM);
    readableByAll(dir);
    const result = await asNobody(['synth', '--dir', dir], { GROUNDWORK_RENDERER_POD: '1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('cannot isolate the renderer');
    expect(result.stderr).not.toContain('warning:');
    expect(result.stdout).not.toContain('kind: ConfigMap');
  });

  it.each([
    ['--trust-repository', ['--trust-repository'], {}],
    ['GROUNDWORK_TRUST_REPOSITORY=1', [], { GROUNDWORK_TRUST_REPOSITORY: '1' }],
  ])('%s renders unisolated, with one warning that says so', async (_what, flag, env) => {
    const dir = platformDir(PLATFORM);
    readableByAll(dir);
    const result = await asNobody(['synth', '--dir', dir, ...flag], env);
    expect(result.stderr).toMatch(/^warning: renderer: NOT isolated \(--trust-repository\)/);
    expect(result.stderr.match(/warning:/g)).toHaveLength(1);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('kind: ConfigMap');
  });
});
