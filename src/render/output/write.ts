import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { toJson, toYaml } from '../synth/canonical.js';
import { manifestFile, type ManifestIndex } from '../synth/manifest.js';
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
      file: manifestFile(m, format),
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
 */
export async function writeSynthOutput(
  results: readonly SynthResult[],
  out: string,
  format: OutputFormat,
): Promise<string[]> {
  const written: string[] = [];
  for (const result of results) {
    const target = join(out, result.overlay);
    const tmp = `${target}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    for (const m of result.manifests) {
      const file = join(tmp, manifestFile(m, format));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, format === 'json' ? toJson(m.object) : toYaml(m.object));
    }
    await mkdir(tmp, { recursive: true });
    await writeFile(join(tmp, 'index.json'), toJson(manifestIndex(result, format)));
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    await rename(tmp, target);
    written.push(target);
  }
  return written;
}
