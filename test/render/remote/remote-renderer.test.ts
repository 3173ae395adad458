// A render sent to a renderer (`serveRenderer`, here in this process on loopback) answers what a
// local render answers; a renderer that cannot be reached, or a request that does not read, fails
// the render with a clear code and nothing rendered.
import { realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { RENDER_PATH } from '../../../src/render/remote/remote-request.js';
import { serveRenderer } from '../../../src/render/remote/renderer-server.js';
import { configMapPlatform } from '../../harness/config-map-platform.js';
import { platformDir } from '../../harness/platform-dir.js';

let server: Awaited<ReturnType<typeof serveRenderer>>;
let url: string;
const saved = process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS;
beforeAll(async () => {
  process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS = '1';
  server = await serveRenderer({ port: 0, maxRequestBytes: 8 * 1024 * 1024 });
  url = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  if (saved === undefined) delete process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS;
  else process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS = saved;
});

describe('a renderer over HTTP', () => {
  it('renders what a local renderer renders', async () => {
    const dir = platformDir(configMapPlatform(''));
    const opts = { overlay: 'dev', domain: 'local' as const, cache: false };
    const [local] = await renderPlatform(dir, opts);
    const [remote] = await renderPlatform(dir, { ...opts, renderer: url });
    expect(remote!.manifests.map((m) => m.object)).toEqual(local!.manifests.map((m) => m.object));
    expect(remote!.manifests.map((m) => m.object.metadata?.name)).toEqual(['real']);
  }, 120_000);

  it("says the platform's own error with the agent's paths, not the renderer's", async () => {
    const dir = realpathSync(platformDir(configMapPlatform("throw new Error('broken at import');")));
    const err = await renderPlatform(dir, {
      overlay: 'dev',
      domain: 'local',
      cache: false,
      renderer: url,
    }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('broken at import');
    expect((err as Error).message).not.toContain('groundwork-renderer');
  }, 120_000);

  it('fails with RendererUnreachable when nothing listens, and for a loopback URL without the test switch', async () => {
    const dir = platformDir(configMapPlatform(''));
    const closed = await serveRenderer({ port: 0 });
    await closed.close();
    const down = await renderPlatform(dir, {
      overlay: 'dev',
      domain: 'local',
      renderer: `http://127.0.0.1:${closed.port}`,
    }).catch((e: unknown) => e);
    expect(hasCode(down, 'RendererUnreachable')).toBe(true);
    delete process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS;
    try {
      const loopback = await renderPlatform(dir, { overlay: 'dev', domain: 'local', renderer: url }).catch(
        (e: unknown) => e,
      );
      expect(hasCode(loopback, 'RendererUnreachable')).toBe(true);
      expect((loopback as Error).message).toContain('loopback');
    } finally {
      process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS = '1';
    }
  });

  it('refuses a body that is not a request, and one over its size, without rendering', async () => {
    const post = (body: string) => fetch(`${url}${RENDER_PATH}`, { method: 'POST', body });
    const bad = await post('{"nonce":"x"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ refused: 'the body is not a render request' });
    const big = await post('x'.repeat(9 * 1024 * 1024));
    expect(big.status).toBe(413);
  });
});
