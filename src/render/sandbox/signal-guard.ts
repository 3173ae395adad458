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
 *
 * This is the layer that holds everywhere; where the machine allows it the child also runs in a
 * PID namespace of its own (see `isolation.ts`), where no other process has a PID to name.
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
