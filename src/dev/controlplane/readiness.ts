import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { GroundworkError } from '../../core/errors.js';
import { logTail, type ManagedProcess } from './process.js';

/**
 * Polls until the apiserver answers `/readyz` with 200 and the `default` namespace exists.
 * Fails early, with the log tail, if one of `processes` exits meanwhile.
 */
export async function waitForServer(opts: {
  server: string;
  caFile: string;
  token: string;
  processes: readonly ManagedProcess[];
  timeoutMs: number;
}): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let exited: ManagedProcess | undefined;
  for (const p of opts.processes) void p.exited.then(() => (exited ??= p));
  let last = 'not started';
  for (;;) {
    if (exited) {
      throw new GroundworkError({
        code: 'ControlPlaneStartFailed',
        subject: exited.name,
        message: `exited during start-up:\n${logTail(exited.logFile)}`,
        fix: `see ${exited.logFile}`,
      });
    }
    if (Date.now() > deadline) {
      throw new GroundworkError({
        code: 'ControlPlaneStartFailed',
        subject: opts.server,
        message: `not ready after ${opts.timeoutMs / 1000}s (last: ${last})`,
      });
    }
    if (existsSync(opts.caFile)) {
      const ca = readFileSync(opts.caFile);
      const ready = await get(`${opts.server}/readyz`, ca, opts.token);
      last = `/readyz ${ready}`;
      if (ready === 200) {
        const ns = await get(`${opts.server}/api/v1/namespaces/default`, ca, opts.token);
        last = `namespace default ${ns}`;
        if (ns === 200) return;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function get(url: string, ca: Buffer, token: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err) => resolve(err.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}
