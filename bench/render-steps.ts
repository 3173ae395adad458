// The steps of one render at N objects, each timed in one process (issue 36):
// `node dist/bench/render-steps.js [objects] [child node flags...]`. The platform child runs its
// bundle directly (no permission flags, no renderer around it); the renderer's and the trusted
// side's steps on its answer run here, one after the other, as they would.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadProjectConfig } from '../src/project/config.js';
import { POST_SYNTH_CHECKS } from '../src/reconcile/domains.js';
import { renderRecorded } from '../src/render/recorded/render-recorded.js';
import { bundleChild } from '../src/render/sandbox/bundle.js';
import { decodeFrame, encodeFrame } from '../src/render/sandbox/protocol.js';
import { unrenderedAnswer } from '../src/render/sandbox/unrendered-answer.js';
import { checkResults } from '../src/render/synth/check-results.js';
import { storeResults } from '../src/render/result-cache/synth-result-cache.js';
import { cpuMs, writeBenchCheckout } from './render-work.js';

const objects = Number(process.argv[2] ?? 20000);
const childFlags = process.argv.slice(3);
const root = await mkdtemp(join(tmpdir(), 'gw-render-steps-'));
const dir = join(root, 'work');
const timings: Record<string, number> = {};
const step = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
  const t = performance.now();
  const out = await f();
  timings[name] = Math.round(performance.now() - t);
  return out;
};
try {
  await writeBenchCheckout(dir);
  await writeFile(
    join(dir, 'overlays', 'bench.yaml'),
    JSON.stringify({ namespaces: 10, objects, changed: {} }),
  );
  const config = await loadProjectConfig(dir);
  const bundle = await step('bundle (first, not cached)', () =>
    bundleChild(dir, config.entry, { cacheDir: join(root, 'bundles') }),
  );
  await step('bundle (cached)', () => bundleChild(dir, config.entry, { cacheDir: join(root, 'bundles') }));
  const nonce = randomBytes(16).toString('hex');
  const c0 = cpuMs();
  const frame = await step(
    'platform child (spawn to exit)',
    () =>
      new Promise<Buffer>((resolve, reject) => {
        const child = spawn(process.execPath, [...childFlags, bundle.file, dir, 'bench'], {
          cwd: dir,
          stdio: ['pipe', 'inherit', 'inherit', 'pipe'],
        });
        child.stdin!.end(`${nonce}\n`);
        const chunks: Buffer[] = [];
        (child.stdio[3] as Readable).on('data', (d: Buffer) => chunks.push(d));
        child.on('error', reject);
        child.on('close', () => resolve(Buffer.concat(chunks)));
      }),
  );
  timings['platform child CPU'] = cpuMs().children - c0.children;
  timings['frame MB'] = Math.round(frame.length / 1048576);
  const expect = { overlays: ['bench'], platform: 'bench', capBytes: 64 * 1048576 };
  // The renderer forwards an answer with nothing to render (unrenderedAnswer); else it reads it,
  // renders what was recorded and encodes its own answer.
  const json = await step('renderer: unrenderedAnswer', () =>
    unrenderedAnswer(frame, nonce, expect.capBytes),
  );
  const again = json
    ? Buffer.concat([Buffer.from(`${nonce}\n`), json])
    : await (async () => {
        const decoded = await step('renderer: decodeFrame', () => decodeFrame(frame, nonce, expect));
        if (!decoded.ok || !decoded.output.ok) throw new Error('bad frame');
        const results = await step('renderer: renderRecorded', () =>
          renderRecorded(decoded.output.ok ? decoded.output.results : [], {
            dir,
            tools: {
              helm: () => Promise.reject(new Error('no')),
              kustomize: () => Promise.reject(new Error('no')),
            },
            config,
            cacheDir: false,
          }),
        );
        return step('renderer: encodeFrame', () => Buffer.from(encodeFrame(nonce, { ok: true, results })));
      })();
  const trusted = await step('trusted: decodeFrame', () => decodeFrame(again, nonce, expect));
  if (!trusted.ok || !trusted.output.ok) throw new Error('bad frame');
  const checked = await step('trusted: checkResults', () =>
    checkResults(trusted.output.ok ? trusted.output.results : [], { config, dir, checks: POST_SYNTH_CHECKS }),
  );
  await step('trusted: storeResults', () => storeResults(join(root, 'results'), 'k'.repeat(40), checked));
  const self = cpuMs().self - c0.self;
  process.stdout.write(
    `${JSON.stringify({ objects, ...timings, 'this process CPU after bundling': self })}\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
