import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's chromium (`.ci/run` installs it); `GROUNDWORK_CHROMIUM` names another binary. */
const CHROMIUM = process.env.GROUNDWORK_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Chromium for the browser tests (the caller closes it). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/**
 * Registers hooks that launch one Chromium for the test file and close it after; the getter is
 * valid inside tests.
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  return () => browser!;
}
