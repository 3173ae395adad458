import { readBoundedFile } from '../../core/confined-file.js';
import type { FailOn } from '../../report/preview/gate.js';
import { PREVIEW_JSON_LIMITS, parsePreviewJson } from '../../report/preview/preview-schema.js';
import type { SetExitCode } from '../commands/command-module.js';
import { printPreview } from './print-preview.js';

export interface PreviewFromJsonFlags {
  fromJson: string;
  output?: string;
  format?: string;
  failOn?: FailOn;
}

/**
 * `groundwork preview --from-json FILE`: a preview another job rendered (`-o json`), read as data
 * (`parsePreviewJson`: bounded, strict, recounted) and rendered again here, markdown through the
 * escaping builder, never taken as it came. The gate (`--fail-on`) is decided from that data too.
 * This is the trusted half of the shipped preview workflow: the job that may comment and set a
 * commit status runs this on the pull request job's artifact, and runs nothing of the pull request.
 */
export async function runPreviewFromJson(
  flags: PreviewFromJsonFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  const text = await readBoundedFile(flags.fromJson, {
    maxBytes: PREVIEW_JSON_LIMITS.bytes,
    what: 'preview document',
  });
  printPreview(parsePreviewJson(text, flags.fromJson), flags, setExitCode);
}
