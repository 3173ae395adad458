import type { PlatformFiles } from './platform-files.js';
import type { Splice } from './splice.js';
import { stringLiterals } from './ts-literals.js';
import { scalarText, yamlScalars } from './yaml-scalars.js';

/** Where one value is written: the splices that replace it, by file. */
export type PinLocations = Map<string, Splice[]>;

/**
 * Every place the environment's overlay files and the platform's sources write `value` as a whole
 * string (a YAML string scalar, a plain TypeScript string literal) whose key `keyMatches` accepts,
 * with the splice that writes `next` there instead, keeping the quoting style. Nothing else of a
 * file changes: comments, formatting and other values stay byte for byte. An overlay that is not
 * YAML is skipped (synth already read it). Pure.
 */
export function locatePin(
  files: PlatformFiles,
  value: string,
  next: string,
  keyMatches: (key: string | undefined) => boolean,
): PinLocations {
  const found: PinLocations = new Map();
  const add = (path: string, splice: Splice) => found.set(path, [...(found.get(path) ?? []), splice]);
  for (const [path, text] of files.overlays) {
    let scalars;
    try {
      scalars = yamlScalars(text);
    } catch {
      continue;
    }
    for (const s of scalars) {
      const key = s.path[s.path.length - 1];
      if (s.value === value && keyMatches(typeof key === 'string' ? key : undefined))
        add(path, { start: s.start, end: s.end, text: scalarText(next, s.type) });
    }
  }
  for (const [path, text] of files.sources)
    for (const lit of stringLiterals(text))
      if (lit.value === value && keyMatches(lit.key))
        add(path, {
          start: lit.start,
          end: lit.end,
          text: `${lit.quote}${escapeFor(next, lit.quote)}${lit.quote}`,
        });
  return found;
}

/** `next` inside a TypeScript literal of `quote` (only safe versions and names reach here; this is the belt). */
function escapeFor(next: string, quote: string): string {
  return next
    .replace(/\\/g, '\\\\')
    .replace(new RegExp(quote === '`' ? '[`$]' : quote, 'g'), (c) => `\\${c}`);
}

/** Keys a pin of each kind may sit under: a CSV anywhere; a version under `…version`; a channel under `…channel`. */
export const KEYS = {
  any: () => true,
  version: (key: string | undefined) => key !== undefined && /version$/i.test(key),
  channel: (key: string | undefined) => key !== undefined && /channel$/i.test(key),
} as const;
