// Synth alone, as the agent renders (issue 36): `node dist/bench/render-alone.js [objects] [renders]`.
// Writes the bench platform (`PLATFORM`, 10 namespaces) to a temporary checkout and renders it with
// `renderPlatform` (domain `agent`, the agent's post-synth checks, the result cache on), a new
// overlay value each time so every render is a miss with the bundle cached; prints one JSON line
// per render: wall, this process's CPU and the renderer tree's (waited for, so in `cutime`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderPlatform } from '../src/render/render-platform.js';
import { POST_SYNTH_CHECKS } from '../src/reconcile/domains.js';
import { cpuMs, writeBenchCheckout } from './render-work.js';

const objects = Number(process.argv[2] ?? 20000);
const renders = Number(process.argv[3] ?? 4);
const root = await mkdtemp(join(tmpdir(), 'gw-render-alone-'));
const dir = join(root, 'work');
try {
  await writeBenchCheckout(dir);
  for (let i = 0; i < renders; i++) {
    const changed = { 'cm-17': `render-${i}` };
    await writeFile(
      join(dir, 'overlays', 'bench.yaml'),
      JSON.stringify({ namespaces: 10, objects, changed }),
    );
    const c0 = cpuMs();
    const t0 = performance.now();
    const [result] = await renderPlatform(dir, {
      overlay: 'bench',
      domain: 'agent',
      checks: POST_SYNTH_CHECKS,
      cacheDir: join(root, 'cache'),
    });
    const wall = performance.now() - t0;
    const c1 = cpuMs();
    process.stdout.write(
      `${JSON.stringify({
        render: i + 1,
        manifests: result!.manifests.length,
        hash: result!.hash,
        wallMs: Math.round(wall),
        trustedCpuMs: c1.self - c0.self,
        rendererTreeCpuMs: c1.children - c0.children,
      })}\n`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
