// Starting helm or kustomize on repository content: no credentials, no cluster, no network where
// the kernel allows, a time limit and an output cap.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ToolRun {
  /** The binary (an absolute path). */
  binary: string;
  args: readonly string[];
  /** Working directory. */
  cwd: string;
  /** Kill the tool after this long. */
  timeoutMs: number;
  /** Stop the tool once its stdout passes this many bytes. */
  outputCapBytes: number;
}

/** How a run ended: its output, or why there is none. */
export type ToolOutcome =
  | { ok: true; stdout: string; stderr: string }
  | { ok: false; reason: 'exit'; code: number | null; stderr: string }
  | { ok: false; reason: 'timeout' | 'output-cap' | 'spawn' };

/** The most of stderr kept for error messages. */
const STDERR_CAP = 64 * 1024;

/**
 * Runs `binary args` with an environment of its own: `PATH` of the system directories only, and
 * `HOME`, the XDG directories, helm's cache/config/data directories and `KUBECONFIG` in a fresh
 * temporary directory removed afterwards. Nothing of this process's environment passes (no
 * kubeconfig, no cloud or registry credentials, no `KUBERNETES_SERVICE_*`, so no in-cluster
 * config either). Where unprivileged user namespaces work, the tool runs in a network namespace of
 * its own (`unshare --user --net`): it reaches no network at all, the cluster included.
 * The tool leads its own process group, killed whole on timeout or past the output cap.
 */
export async function runTool(run: ToolRun): Promise<ToolOutcome> {
  const home = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-render-')));
  try {
    const env = await isolatedEnv(home);
    const [command, ...args] = [...(offlineLauncher() ?? []), run.binary, ...run.args];
    return await new Promise<ToolOutcome>((resolve) => {
      const child = spawn(command!, args, {
        cwd: run.cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let outBytes = 0;
      let errBytes = 0;
      let stopped: 'timeout' | 'output-cap' | undefined;
      const stop = (why: 'timeout' | 'output-cap') => {
        stopped ??= why;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
      child.stdout.on('data', (b: Buffer) => {
        outBytes += b.length;
        if (outBytes > run.outputCapBytes) return stop('output-cap');
        out.push(b);
      });
      child.stderr.on('data', (b: Buffer) => {
        if (errBytes < STDERR_CAP) err.push(b);
        errBytes += b.length;
      });
      child.on('error', () => {
        clearTimeout(timer);
        resolve({ ok: false, reason: 'spawn' });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).subarray(0, STDERR_CAP).toString('utf8');
        if (stopped) resolve({ ok: false, reason: stopped });
        else if (code === 0) resolve({ ok: true, stdout: Buffer.concat(out).toString('utf8'), stderr });
        else resolve({ ok: false, reason: 'exit', code, stderr });
      });
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** The environment of a render: system PATH, every home directory under `home`. */
async function isolatedEnv(home: string): Promise<NodeJS.ProcessEnv> {
  const dirs = {
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    HELM_CACHE_HOME: join(home, 'cache', 'helm'),
    HELM_CONFIG_HOME: join(home, 'config', 'helm'),
    HELM_DATA_HOME: join(home, 'data', 'helm'),
  };
  await Promise.all(Object.values(dirs).map((d) => mkdir(d, { recursive: true })));
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ...dirs,
    // A file that does not exist: helm and kustomize find no cluster to talk to.
    KUBECONFIG: join(home, 'no-kubeconfig'),
    LANG: 'C.UTF-8',
  };
}

let launcher: string[] | null | undefined;

/** `unshare --user --net --`, when this machine lets an unprivileged process use it; else null. Probed once. */
export function offlineLauncher(): string[] | null {
  if (launcher !== undefined) return launcher;
  const argv = ['unshare', '--user', '--net', '--'];
  const probe = spawnSync(argv[0]!, [...argv.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 });
  launcher = probe.status === 0 ? argv : null;
  return launcher;
}
