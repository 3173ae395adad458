import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { sharedService, type StartedService } from './shared-service.js';

/** Debian's chromium (`.ci/run` installs it); `GROUNDWORK_CHROMIUM` names another binary. */
const CHROMIUM = process.env.GROUNDWORK_CHROMIUM ?? '/usr/bin/chromium';

const SERVER = fileURLToPath(new URL('./browser-server.mjs', import.meta.url));

const serverSchema = z.object({ wsEndpoint: z.string(), browserPid: z.number().int().positive() });

/**
 * Headless Chromium for a browser test: a connection to the run's one Chromium (a playwright
 * browser server started by the first file that asks, stopped at the end of the run: see
 * `shared-service.ts`). Each test file gets its own connection; `close()` closes the contexts it
 * made and disconnects, the browser stays for the next file.
 */
export async function launchChromium(): Promise<Browser> {
  const { wsEndpoint } = await sharedService('chromium', serverSchema, startBrowserServer);
  return chromium.connect(wsEndpoint);
}

/**
 * Registers hooks that connect this test file to the run's Chromium and disconnect after; the
 * getter is valid inside tests.
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  return () => browser!;
}

/** Starts `browser-server.mjs` detached and waits (up to 60 s) for the endpoint it writes. */
async function startBrowserServer(): Promise<StartedService<z.infer<typeof serverSchema>>> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does), or set GROUNDWORK_CHROMIUM`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  const endpointFile = join(dir, 'endpoint.json');
  const log = openSync(join(dir, 'server.log'), 'a');
  const child = spawn(process.execPath, [SERVER, endpointFile, CHROMIUM], {
    stdio: ['ignore', log, log],
    detached: true,
    env: { ...process.env, HOME: dir },
  });
  closeSync(log);
  child.unref();
  const deadline = Date.now() + 60_000;
  while (!existsSync(endpointFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const output = readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000);
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`the browser server did not start (exit ${child.exitCode}): ${output}`);
    }
    await sleep(50);
  }
  const state = serverSchema.parse(JSON.parse(readFileSync(endpointFile, 'utf8')));
  return { state, pids: [child.pid!, state.browserPid], dir };
}
