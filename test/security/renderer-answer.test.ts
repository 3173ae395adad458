// Issue 31: with `--renderer`, the renderer pod's answer is a new input path of the agent. A pod
// that repository content once ran in may answer anything; each answer here is refused with a
// clear code, bounded, and nothing is rendered from it.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { renderPlatform } from '../../src/render/render-platform.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { platformDir } from '../harness/platform-dir.js';

let server: Server | undefined;
afterEach(() => server?.close());

/** A renderer that answers every request with `answer(body)`, and its URL. */
async function hostileRenderer(
  answer: (request: { nonce: string }) => string,
  status = 200,
): Promise<string> {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { nonce: string }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const render = async (url: string, outputCapMb?: number) =>
  renderPlatform(platformDir(configMapPlatform('')), {
    overlay: 'dev',
    domain: 'agent',
    renderer: url,
    ...(outputCapMb ? { outputCapMb } : {}),
  }).catch((e: unknown) => e as Error);

const ended = (frame: string, more: Record<string, unknown> = {}) =>
  JSON.stringify({
    exit: { code: 0, signal: null },
    frame: Buffer.from(frame).toString('base64'),
    log: '',
    dir: '/tmp/x',
    ...more,
  });

describe("a hostile renderer pod's answer", () => {
  it('an answer larger than the frame cap is not read past it', async () => {
    const err = await render(await hostileRenderer(() => ended('x'.repeat(3 * 1024 * 1024))), 1);
    expect(hasCode(err, 'RendererUnreachable')).toBe(true);
    expect((err as Error).message).toContain('larger than');
  });

  it('a frame without this render’s nonce is refused (SynthCrashed), whatever it holds', async () => {
    const forged = JSON.stringify({ ok: true, results: [] });
    const err = await render(await hostileRenderer(() => ended(`${'0'.repeat(32)}\n${forged}`)));
    expect(hasCode(err, 'SynthCrashed')).toBe(true);
  });

  it('a frame with the nonce but results for another platform is refused', async () => {
    const forged = (nonce: string) =>
      `${nonce}\n${JSON.stringify({ ok: true, results: [{ platform: 'other', overlay: 'dev', manifests: [], hash: 'x', warnings: [] }] })}`;
    const err = await render(await hostileRenderer((r) => ended(forged(r.nonce))));
    expect(hasCode(err, 'SynthCrashed')).toBe(true);
  });

  it('unknown fields, a relative dir, an HTTP error or garbage: RendererUnreachable', async () => {
    for (const [answer, status] of [
      [ended('', { extra: true }), 200],
      [ended('', { dir: 'e' }), 200],
      ['not json', 200],
      ['{"refused":"busy"}', 503],
    ] as const) {
      const err = await render(await hostileRenderer(() => answer, status));
      expect(hasCode(err, 'RendererUnreachable'), answer).toBe(true);
      server?.close();
    }
  });
});
