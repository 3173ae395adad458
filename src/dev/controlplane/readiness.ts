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
  await waitUntil({
    subject: opts.server,
    processes: opts.processes,
    timeoutMs: opts.timeoutMs,
    check: async () => {
      if (!existsSync(opts.caFile)) return 'no serving certificate yet';
      const ca = readFileSync(opts.caFile);
      const ready = await httpsStatus(`${opts.server}/readyz`, ca, opts.token);
      if (ready !== 200) return `/readyz ${ready}`;
      const ns = await httpsStatus(`${opts.server}/api/v1/namespaces/default`, ca, opts.token);
      return ns === 200 ? true : `namespace default ${ns}`;
    },
  });
}

/**
 * Polls `check` every 200 ms until it returns `true`; any other value says what is still missing and
 * goes into the timeout's message. Fails early, with the log tail, if one of `processes` exits.
 */
export async function waitUntil(opts: {
  subject: string;
  check: () => Promise<true | string>;
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
        subject: opts.subject,
        message: `not ready after ${opts.timeoutMs / 1000}s (last: ${last})`,
      });
    }
    const result = await opts.check();
    if (result === true) return;
    last = result;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The status code of a GET over TLS trusting `ca` (with a bearer token), or the error's message. */
export function httpsStatus(url: string, ca: Buffer, token?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const req = request(url, { ca, headers, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err) => resolve(err.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}
