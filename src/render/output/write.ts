import { mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { toJson, toYaml } from '../synth/canonical.js';
import type { ManifestIndex } from '../synth/manifest.js';
import { objectFile, overlayOutputDir } from './output-paths.js';
import type { SynthResult } from '../synth/synthesize.js';

export type OutputFormat = 'yaml' | 'json';

/** The index document of one overlay's output. */
export function manifestIndex(result: SynthResult, format: OutputFormat): ManifestIndex {
  return {
    apiVersion: 'groundwork.io/v1',
    kind: 'ManifestIndex',
    platform: result.platform,
    overlay: result.overlay,
    hash: result.hash,
    count: result.manifests.length,
    objects: result.manifests.map((m) => ({
      id: m.id,
      stage: m.stage,
      file: objectFile(m, format),
      hash: m.hash,
      source: m.source,
    })),
  };
}

/** One overlay as a single multi-document stream (YAML) or a JSON array, for stdout. */
export function renderStream(result: SynthResult, format: OutputFormat): string {
  if (format === 'json') return toJson(result.manifests.map((m) => m.object));
  return result.manifests.map((m) => `---\n${toYaml(m.object)}`).join('');
}

/**
 * Writes each overlay to `<out>/<overlay>/`: one file per object under `<NN>-<stage>/` and
 * `index.json`. Each overlay directory is built beside the target and swapped in by rename, so a
 * reader never sees a half-written or stale mix; other overlays' directories are left alone.
 *
 * Nothing outside `out` is written, removed or replaced: `out` is created and taken by its real
 * path; each overlay must be one of `opts.overlays` (the overlays this synth asked for, listed by
 * the caller from the checkout, never from the results) and is placed by `overlayOutputDir`; each
 * file is named by `objectFile` (valid names only). Every path is checked before the first write,
 * so a refused result writes nothing at all. Throws `OutputPathRefused`.
 */
export async function writeSynthOutput(
  results: readonly SynthResult[],
  out: string,
  format: OutputFormat,
  opts: { overlays: readonly string[] },
): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const outReal = await realpath(out);
  const seen = new Set<string>();
  const planned: { result: SynthResult; target: string; files: string[] }[] = [];
  for (const result of results) {
    if (seen.has(result.overlay))
      throw new GroundworkError({
        code: 'OutputPathRefused',
        subject: `--out ${out}`,
        message: `overlay ${JSON.stringify(result.overlay.slice(0, 80))} was answered twice; nothing was written`,
        fix: 'report this: the renderer answered something it was not asked',
      });
    seen.add(result.overlay);
    const target = await overlayOutputDir(outReal, result.overlay, opts.overlays);
    planned.push({ result, target, files: result.manifests.map((m) => objectFile(m, format)) });
  }
  const written: string[] = [];
  for (const { result, target, files } of planned) {
    const tmp = `${target}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp);
    for (const [i, m] of result.manifests.entries()) {
      const file = join(tmp, files[i]!);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, format === 'json' ? toJson(m.object) : toYaml(m.object), { flag: 'wx' });
    }
    await writeFile(join(tmp, 'index.json'), toJson(manifestIndex(result, format)), { flag: 'wx' });
    // A link in the target's place is removed itself, never what it points to.
    await rm(target, { recursive: true, force: true });
    await rename(tmp, target);
    written.push(target);
  }
  return written;
}
