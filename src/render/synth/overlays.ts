import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { LineCounter, isMap, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { readConfinedFile } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';
import { failureLocation, yamlFailure } from '../../core/parse-failure.js';
import { isPlainObject } from '../../core/object.js';
import { SynthValidationError, formatPath, type ValidationIssue } from './validation.js';

/** Overlay names under `dir`: file paths without extension (`dev`, `clusters/prod-eu-1`), sorted. */
export async function listOverlays(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const names: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else if (/\.ya?ml$/.test(e.name)) names.push(relative(dir, join(d, e.name)).replace(/\.ya?ml$/, ''));
    }
  };
  await walk(dir);
  return names.sort();
}

/** The largest overlay file read (values, not data: real ones are a few KiB). */
const OVERLAY_MAX_BYTES = 4 * 1024 * 1024;

interface Layer {
  file: string;
  doc: Document;
  lines: LineCounter;
  values: Record<string, unknown>;
}

/**
 * Loads an overlay's values: the file `<dir>/<name>.yaml`, merged over the overlay it `extends`
 * (objects merge key by key, arrays and scalars replace), then validated against the platform's
 * schema. Every problem is reported with the overlay file, line and key, e.g.
 * `overlays/prod.yaml:7: clusterVersion.channel: ...`; throws SynthValidationError.
 */
export async function loadOverlayValues(
  dir: string,
  name: string,
  schema: z.ZodType,
  displayRoot: string,
): Promise<unknown> {
  return (await loadOverlay(dir, name, schema, displayRoot)).values;
}

/** A scalar overlay value and the file line that set it (the last layer of the `extends` chain wins). */
export interface ValueOrigin {
  /** `operators.kepler.pin`, `pools[0].name` */
  key: string;
  value: string;
  /** `overlays/prod.yaml:12` */
  at: string;
}

/** `loadOverlayValues`, plus where each scalar value came from (for errors about values). */
export async function loadOverlay(
  dir: string,
  name: string,
  schema: z.ZodType,
  displayRoot: string,
): Promise<{ values: unknown; origins: ValueOrigin[] }> {
  const layers = await loadChain(dir, name, displayRoot, []);
  const merged = layers.reduce<Record<string, unknown>>((acc, l) => deepMerge(acc, l.values), {});
  const parsed = schema.safeParse(merged);
  if (parsed.success) return { values: parsed.data, origins: originsOf(layers, merged) };
  const issues: ValidationIssue[] = parsed.error.issues.map((issue) => {
    const base = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    // An unknown key is pointed at itself, not at the mapping that holds it.
    const path = issue.code === 'unrecognized_keys' && issue.keys[0] ? [...base, issue.keys[0]] : base;
    // Point at the file (and line) that set the key, or at the deepest parent that exists.
    for (let len = path.length; len > 0; len--) {
      const prefix = path.slice(0, len);
      const layer = [...layers].reverse().find((l) => l.doc.hasIn(prefix));
      if (layer)
        return {
          path: `${layer.file}${lineOf(layer, prefix)}`,
          field: formatPath(path),
          message: issue.message,
          severity: 'error' as const,
        };
    }
    return {
      path: layers[layers.length - 1]!.file,
      field: formatPath(path),
      message: issue.message,
      severity: 'error' as const,
    };
  });
  throw new SynthValidationError(issues);
}

/**
 * Where each scalar value of overlay `name` came from (its `extends` chain merged), without
 * validating the values: for the synth parent, which has no platform schema, to name the overlay
 * key a chart value probably came from. Throws as `loadOverlay` does for a file it cannot read.
 */
export async function overlayOrigins(dir: string, name: string, displayRoot: string): Promise<ValueOrigin[]> {
  const layers = await loadChain(dir, name, displayRoot, []);
  return originsOf(
    layers,
    layers.reduce<Record<string, unknown>>((acc, l) => deepMerge(acc, l.values), {}),
  );
}

/**
 * Whether `name` names a file inside the overlays directory: segments of letters, digits, `.`, `_`
 * and `-` joined by `/`, none of them `.` or `..`. Anything else could read a file outside it.
 */
function isOverlayName(name: string): boolean {
  return (
    /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(name) &&
    name.split('/').every((segment) => segment !== '.' && segment !== '..')
  );
}

const OVERLAY_NAME_RULE =
  'a path inside the overlays directory (letters, digits, ".", "_", "-" and "/", no ".." segments)';

async function loadChain(dir: string, name: string, displayRoot: string, seen: string[]): Promise<Layer[]> {
  if (!isOverlayName(name)) {
    throw new GroundworkError({
      code: 'InvalidOverlay',
      subject: `overlay name ${JSON.stringify(name)}`,
      message: `must be ${OVERLAY_NAME_RULE}`,
      fix: `use one of: ${(await listOverlays(dir)).join(', ') || '(none found)'}`,
    });
  }
  if (seen.includes(name)) {
    throw new GroundworkError({
      code: 'InvalidOverlay',
      subject: `overlay ${name}`,
      message: `extends cycle: ${[...seen, name].join(' -> ')}`,
    });
  }
  const path = [join(dir, `${name}.yaml`), join(dir, `${name}.yml`)].find((p) => existsSync(p));
  if (!path) {
    const known = await listOverlays(dir);
    throw new GroundworkError({
      code: 'UnknownOverlay',
      subject: `overlay ${name}`,
      message: `no ${name}.yaml in ${relative(displayRoot, dir) || '.'}`,
      fix: known.length
        ? `use one of: ${known.join(', ')}`
        : `create ${relative(displayRoot, join(dir, `${name}.yaml`))}`,
    });
  }
  const file = relative(displayRoot, path);
  const lines = new LineCounter();
  // Inside the checkout by real path (a link out of it is refused, never read), and bounded.
  const text = await readConfinedFile({
    root: displayRoot,
    path: file,
    maxBytes: OVERLAY_MAX_BYTES,
    what: 'overlay',
  });
  const doc = parseDocument(text, { lineCounter: lines });
  const first = doc.errors[0];
  if (first) {
    // Where and why, never the text: the parser's message carries a code frame of the file.
    const failure = yamlFailure(first);
    throw new SynthValidationError([
      { path: failureLocation(file, failure), field: '', message: failure.reason, severity: 'error' },
    ]);
  }
  let raw: unknown;
  try {
    // toJS resolves aliases: an alias bomb stops here ("Excessive alias count"), named by file.
    raw = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as unknown;
  } catch (err) {
    throw new SynthValidationError([
      { path: file, field: '', message: yamlFailure(err).reason, severity: 'error' },
    ]);
  }
  if (!isPlainObject(raw)) {
    throw new SynthValidationError([
      { path: file, field: '', message: 'an overlay must be a YAML mapping of values', severity: 'error' },
    ]);
  }
  const { extends: parent, ...values } = raw;
  const layer: Layer = { file, doc, lines, values };
  if (parent === undefined) return [layer];
  if (typeof parent !== 'string' || !isOverlayName(parent)) {
    throw new SynthValidationError([
      {
        path: `${file}${lineOf(layer, ['extends'])}`,
        field: 'extends',
        message: `must be the name of another overlay: ${OVERLAY_NAME_RULE}`,
        severity: 'error',
      },
    ]);
  }
  return [...(await loadChain(dir, parent, displayRoot, [...seen, name])), layer];
}

/** Every string or number leaf of `merged`, with the layer file and line that set it. */
function originsOf(layers: readonly Layer[], merged: Record<string, unknown>): ValueOrigin[] {
  const out: ValueOrigin[] = [];
  const walk = (value: unknown, path: (string | number)[]): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    else if (typeof value === 'string' || typeof value === 'number') {
      const layer = [...layers].reverse().find((l) => l.doc.hasIn(path));
      if (layer)
        out.push({ key: formatPath(path), value: String(value), at: `${layer.file}${lineOf(layer, path)}` });
    }
  };
  walk(merged, []);
  return out;
}

/**
 * The overlay values an issue is about: values of at least three characters that its message
 * quotes as a whole word (a pin, a version, a channel). Short or common values (`1`, `true`) are
 * never matched, so a mention is a real lead, not a coincidence.
 */
export function originsInMessage(message: string, origins: readonly ValueOrigin[]): ValueOrigin[] {
  return origins.filter((o) => {
    if (o.value.length < 3) return false;
    const escaped = o.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\w.-])${escaped}($|[^\\w-]|\\.(?!\\w))`).test(message);
  });
}

/** `overlays/prod.yaml:9 (kepler.pin), ...` for `found`; undefined when there is none. */
export function describeOrigins(found: readonly ValueOrigin[]): string | undefined {
  if (found.length === 0) return undefined;
  return found.map((o) => `${o.at} (${o.key})`).join(', ');
}

/** `:<line>` of the value at `path` in a layer's file, or '' when the key is not in it. */
function lineOf(layer: Layer, path: (string | number)[]): string {
  if (!isMap(layer.doc.contents) || !layer.doc.hasIn(path)) return '';
  const node = layer.doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  const offset = node?.range?.[0];
  return offset === undefined ? '' : `:${layer.lines.linePos(offset).line}`;
}

/** Objects merge key by key; anything else from `over` replaces `base`. */
function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] =
      isPlainObject(v) && isPlainObject(base[k]) ? deepMerge(base[k] as Record<string, unknown>, v) : v;
  }
  return out;
}
