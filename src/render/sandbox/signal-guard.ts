import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Inside the synth child, before platform code loads: platform code may signal, or change the
 * priority of, its own process only. `process.kill` of any other PID (the agent, `0` for the
 * process group, `-1` for every process of the user) and `os.setPriority` of another process throw
 * Node's `ERR_ACCESS_DENIED` (permission `Signal` or `Priority`), which synth reports as
 * `NotPermitted` with the platform file and line. Node's own `process.kill` calls
 * `process._kill`, the raw binding, at each call; the guard replaces that binding, and only this
 * closure keeps the original (`process.binding` is closed by the permission model).
 * `process._debugProcess(pid)` (SIGUSR1, which opens a Node process's inspector: `-pgid` and `-1`
 * reach whole groups) is refused for every PID, this one's included: nothing in a synth needs an
 * inspector.
 *
 * This is the layer that holds everywhere, a defence in depth: the child runs inside the renderer,
 * whose isolation (`isolation.ts`) leaves no process with a credential to name.
 */
export function guardSignals(): void {
  const own = process.pid;
  const internal = process as unknown as { _kill: (pid: number, signal: number) => number };
  const rawKill = internal._kill;
  Object.defineProperty(process, '_kill', {
    value: (pid: number, signal: number) => {
      if (pid !== own) throw accessDenied('Signal', `process ${pid}`);
      return rawKill.call(process, pid, signal);
    },
    writable: false,
    configurable: false,
    enumerable: false,
  });
  Object.defineProperty(process, '_debugProcess', {
    value: (pid: number) => {
      throw accessDenied('Signal', `process ${pid}`);
    },
    writable: false,
    configurable: false,
    enumerable: false,
  });
  const setPriority = os.setPriority;
  const guarded = (pidOrPriority: number, priority?: number): void => {
    if (priority === undefined) return setPriority(pidOrPriority);
    if (pidOrPriority !== 0 && pidOrPriority !== own)
      throw accessDenied('Priority', `process ${pidOrPriority}`);
    setPriority(pidOrPriority, priority);
  };
  Object.defineProperty(os, 'setPriority', { value: guarded, writable: false, configurable: false });
  // `import { setPriority } from 'node:os'` reads the ESM facade, which copies the module's exports.
  syncBuiltinESMExports();
}

/** The shape of Node's permission-model refusal, so that `notPermitted` reports it the same way. */
function accessDenied(permission: string, resource: string): Error {
  return Object.assign(new Error(`Access to this API has been restricted: ${permission} ${resource}`), {
    code: 'ERR_ACCESS_DENIED',
    permission,
    resource,
  });
}
