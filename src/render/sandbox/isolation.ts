import { spawn } from 'node:child_process';

/**
 * How the synth child is kept from signalling other processes, beyond the guard on `process.kill`
 * inside it (`guardSignals`):
 * - `pid-namespace`: `unshare --user --pid` starts it as PID 1 of a PID namespace of its own, where
 *   no other process has a PID it could name (the kernel's answer, whatever the JavaScript does);
 * - `process-group`: unshare is missing or refused (a seccomp profile, user namespaces disabled):
 *   the child runs in a session and process group of its own, and only the in-child guard holds.
 * Either way the child leads its own process group, so `kill(0)` reaches nothing of the parent's.
 */
type SynthIsolation = 'pid-namespace' | 'process-group';

/** How `runBundle` wraps the node command of the synth child. */
export interface ChildLauncher {
  isolation: SynthIsolation;
  /**
   * The child is killed when its parent dies (`setpriv --pdeathsig KILL`; inside the namespace
   * `unshare --kill-child`), so a killed agent leaves no synth running behind the restarted one.
   */
  diesWithParent: boolean;
}

/** A user namespace (needs no privilege), with a PID namespace; the node child dies with unshare. */
const UNSHARE_ARGS = ['unshare', '--user', '--pid', '--fork', '--kill-child', '--'] as const;
const PDEATHSIG_ARGS = ['setpriv', '--pdeathsig', 'KILL', '--'] as const;

/**
 * The command line that starts `command` (`[node, ...args]`) under `launcher`. Pure.
 *
 * @example
 * launchArgv({ isolation: 'pid-namespace', diesWithParent: true }, ['/usr/bin/node', 'x.mjs']);
 * // ['setpriv', '--pdeathsig', 'KILL', '--', 'unshare', '--user', ..., '--', '/usr/bin/node', 'x.mjs']
 */
export function launchArgv(launcher: ChildLauncher, command: readonly string[]): string[] {
  const inner = launcher.isolation === 'pid-namespace' ? [...UNSHARE_ARGS, ...command] : [...command];
  return launcher.diesWithParent ? [...PDEATHSIG_ARGS, ...inner] : inner;
}

/** One line for logs and the README's wording: which protection applies. */
export function describeLauncher(launcher: ChildLauncher): string {
  const signals =
    launcher.isolation === 'pid-namespace'
      ? 'a PID namespace of its own (unshare): it can name and signal no other process'
      : 'its own process group, without a PID namespace (unshare unavailable): only the in-child guard on process.kill keeps it from signalling others';
  const death = launcher.diesWithParent
    ? 'killed with its parent (setpriv --pdeathsig)'
    : 'not killed with its parent (setpriv unavailable)';
  return `synth child: ${signals}; ${death}`;
}

let detected: Promise<ChildLauncher> | undefined;

/**
 * The strongest launcher this machine allows, probed once per process (two short runs of `true`,
 * a few milliseconds): a PID namespace when `unshare --user --pid` works unprivileged here, and
 * the parent-death signal when `setpriv` exists. `pidNamespace: false` skips the namespace.
 */
export async function detectLauncher(opts: { pidNamespace?: boolean } = {}): Promise<ChildLauncher> {
  detected ??= Promise.all([succeeds([...UNSHARE_ARGS, 'true']), succeeds([...PDEATHSIG_ARGS, 'true'])]).then(
    ([unshare, setpriv]) => ({
      isolation: unshare ? ('pid-namespace' as const) : ('process-group' as const),
      diesWithParent: setpriv,
    }),
  );
  const best = await detected;
  return opts.pidNamespace === false ? { ...best, isolation: 'process-group' } : best;
}

/** Whether `argv` runs and exits 0 (false when the program is missing or the kernel refuses). */
function succeeds(argv: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}
