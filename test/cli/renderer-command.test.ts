// `groundwork renderer`, the renderer pod's command, through the real CLI.
import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { startRendererProcess } from '../harness/renderer-process.js';

describe('groundwork renderer', () => {
  it('listens and answers /healthz; a non-render path is 404', async () => {
    const renderer = await startRendererProcess();
    try {
      expect(await (await fetch(`${renderer.url}/healthz`)).json()).toEqual({ ok: true });
      expect((await fetch(`${renderer.url}/other`)).status).toBe(404);
      expect(renderer.log()).toContain('"msg":"render sandbox"');
    } finally {
      await renderer.stop();
    }
  }, 90_000);

  it('refuses a flag that does not read, naming the flag and not its value', async () => {
    for (const [flag, value] of [
      ['--port', 'secret-ish-70000'],
      ['--bind', 'secret-ish-host'],
      ['--max-request-mb', 'secret-ish-0'],
    ] as const) {
      const r = await groundwork(['renderer', flag, value], { timeoutMs: 60_000 });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`${flag}: does not read`);
      expect(r.stderr).not.toContain(value);
    }
  }, 120_000);
});
