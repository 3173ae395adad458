// The one builder of the paths `synth --out DIR` writes: each made of validated names only, each
// checked inside DIR by its real path before anything is written, removed or replaced.
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isWithin } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';
import { kindProblem, nameProblem, nameRule, quoteName } from '../../core/object-name.js';
import { splitApiVersion } from '../../core/object.js';
import { isStageName, stageIndex } from '../../core/stages.js';
import type { Manifest } from '../synth/manifest.js';

/** A path segment of an overlay name: a file name of the overlays directory, without its extension. */
const OVERLAY_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

function refused(subject: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({
    code: 'OutputPathRefused',
    subject,
    message: `${message}; nothing was written`,
    fix,
  });
}

/**
 * Why `overlay` cannot be a directory under DIR, or undefined: it must be `/`-separated segments
 * of letters, digits, `_`, `.` and `-` (not starting with `.` or `-`), at most 8 deep. Pure.
 */
export function overlayNameProblem(overlay: string): string | undefined {
  const segments = overlay.split('/');
  if (segments.length <= 8 && segments.every((s) => OVERLAY_SEGMENT.test(s))) return undefined;
  return `overlay ${quoteName(overlay)} is not a relative path of plain names (letters, digits, _ . -)`;
}

/**
 * The file of one object inside its overlay's directory: `<NN>-<stage>/<kind>_<group>_<ns>_<name>.<ext>`
 * (lower-case kind; empty parts left out), the format of the manifest index. Every part is
 * checked first: the stage one of the stage table's, the kind a kind, the group a DNS-1123
 * subdomain, the namespace a DNS-1123 label, the name valid for its kind and free of `/`, `.`
 * or `..` alone and control characters. Pure; throws `OutputPathRefused` naming the object.
 */
export function objectFile(m: Pick<Manifest, 'stage' | 'object'>, ext: 'yaml' | 'json'): string {
  const { kind, metadata } = m.object;
  const group = splitApiVersion(m.object.apiVersion).group;
  const subject = `${kind}/${metadata.namespace ? `${metadata.namespace}/` : ''}${metadata.name}`.slice(
    0,
    200,
  );
  const problem =
    (isStageName(m.stage) ? undefined : `stage ${quoteName(String(m.stage))} is not a stage`) ??
    kindProblem(kind) ??
    (group === '' ? undefined : nameProblem(group, 'dns-subdomain')) ??
    (metadata.namespace === undefined ? undefined : nameProblem(metadata.namespace, 'dns-label')) ??
    nameProblem(metadata.name, nameRule(group, kind)) ??
    // eslint-disable-next-line no-control-regex
    (/[\u0000-\u001f\u007f]/.test(metadata.name)
      ? `name ${quoteName(metadata.name)} holds a control character`
      : undefined);
  if (problem)
    throw refused(
      JSON.stringify(subject),
      `cannot name its output file: ${problem}`,
      'give the object a valid Kubernetes name',
    );
  const n = String(stageIndex(m.stage) + 1).padStart(2, '0');
  const parts = [kind.toLowerCase(), group, metadata.namespace, metadata.name].filter(Boolean);
  return `${n}-${m.stage}/${parts.join('_')}.${ext}`;
}

/**
 * The directory of `overlay` under the output directory `outReal` (a real path), when the overlay
 * is one of `expected` (the overlays this synth was asked for, listed from the checkout by the
 * trusted side: never taken from the renderer's answer) and a plain relative name
 * (`overlayNameProblem`). Creates its parent directories and checks their real path is inside
 * `outReal`, so a symbolic link there cannot lead the write out. Throws `OutputPathRefused`.
 */
export async function overlayOutputDir(
  outReal: string,
  overlay: string,
  expected: readonly string[],
): Promise<string> {
  const problem = overlayNameProblem(overlay);
  if (problem)
    throw refused(`--out ${outReal}`, problem, 'name overlay files with letters, digits, _ . and -');
  if (!expected.includes(overlay))
    throw refused(
      `--out ${outReal}`,
      `the renderer answered overlay ${quoteName(overlay)}, which is not one this synth asked for`,
      'report this: the renderer answered something it was not asked',
    );
  const target = join(outReal, overlay);
  await mkdir(dirname(target), { recursive: true });
  const parent = await realpath(dirname(target));
  if (!isWithin(outReal, parent) || !isWithin(outReal, target))
    throw refused(
      `--out ${outReal}`,
      `overlay ${quoteName(overlay)}: ${dirname(target)} leads outside the output directory (a symbolic link)`,
      'remove the symbolic link from the output directory',
    );
  return join(parent, target.slice(dirname(target).length + 1));
}
