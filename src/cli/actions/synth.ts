import { POST_SYNTH_CHECKS } from '../../reconcile/domains.js';
import { resolve } from 'node:path';
import { SynthValidationError, formatIssue } from '../../render/synth/validation.js';
import { renderPlatform } from '../../render/render-platform.js';
import { loadProject } from '../../project/project.js';
import type { SynthResult } from '../../render/synth/synthesize.js';
import { checkOutputDir } from '../../render/output/out-dir.js';
import { renderStream, writeSynthOutput, type OutputFormat } from '../../render/output/write.js';
import { expectedOverlays } from '../../render/output/expected-overlays.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { outputOf } from '../output.js';

export interface SynthFlags {
  dir: string;
  overlay?: string;
  allOverlays?: boolean;
  out?: string;
  format: string;
  trustRepository?: boolean;
}

/** `groundwork synth`: one overlay (or every one) rendered in the renderer, printed as a stream or written to `--out`. */
export async function runSynth(flags: SynthFlags, setExitCode: SetExitCode): Promise<void> {
  const format = parseFormat(outputOf(flags));
  // groundwork.yaml, read once: the render and the overlays written both take it.
  const project = await loadProject(resolve(flags.dir));
  const request = flags.allOverlays ? { all: true as const } : (flags.overlay ?? project.defaultOverlay);
  // Before synth: a file where the output directory goes fails at once, not after the work.
  if (flags.out) await checkOutputDir(resolve(flags.out));
  let results: SynthResult[];
  try {
    // Platform code, helm and kustomize run in the renderer: no credential, no view of this process.
    results = await renderPlatform(project, {
      checks: POST_SYNTH_CHECKS,
      domain: 'local',
      overlay: request,
      ...(flags.trustRepository ? { trustRepository: true } : {}),
    });
  } catch (err) {
    if (!(err instanceof SynthValidationError)) throw err;
    process.stderr.write(`${err.issues.map(formatIssue).join('\n')}\n`);
    process.stderr.write(
      `synth failed: ${err.issues.filter((i) => i.severity === 'error').length} error(s); nothing was written\n`,
    );
    setExitCode(ExitCode.Error);
    return;
  }
  for (const r of results) for (const w of r.warnings) process.stderr.write(`${formatIssue(w)}\n`);
  if (flags.out) {
    // The overlays asked for, from the checkout: an overlay only the renderer's answer names is refused.
    const overlays = await expectedOverlays(project, request);
    const dirs = await writeSynthOutput(results, resolve(flags.out), format, { overlays });
    for (const [i, r] of results.entries()) {
      process.stdout.write(`${r.overlay}: ${r.manifests.length} objects, ${r.hash} -> ${dirs[i]}\n`);
    }
  } else {
    for (const r of results) {
      if (results.length > 1) process.stdout.write(`# overlay: ${r.overlay}\n`);
      process.stdout.write(renderStream(r, format));
    }
  }
}

function parseFormat(value: string): OutputFormat {
  if (value === 'yaml' || value === 'json') return value;
  throw new Error(`--format must be yaml or json, not ${JSON.stringify(value)}`);
}
