// The one reader of manifests Groundwork did not write (chart and kustomize output, files platform
// code includes, CRD files): YAML read as kubectl, client-go and helm read it.
import { randomBytes } from 'node:crypto';
import jsyaml from 'js-yaml';
import { isPlainObject } from './object.js';
import { resolvePlainScalar } from './manifest-scalars.js';

/**
 * A document kubectl would refuse too, or one the reader will not expand. The message is a verb
 * phrase about the document (`holds .inf, ...`); `line` is 1-based when known.
 */
export class ManifestYamlError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'ManifestYamlError';
  }
}

/** Merge keys (`<<`) resolved per stream at most: a bound against merge bombs. */
const MAX_MERGED_KEYS = 100_000;

/**
 * Each plain `<<` is read as a key of its own (a marker with a random part per read, which no
 * text can guess, and a counter), so that two of them in one mapping are not a duplicate, a quoted
 * `"<<"` stays a plain key, and `resolveMerges` applies them as go-yaml v2 does, in document order.
 */
interface ReadState {
  marker: string;
  merges: number;
}
let state: ReadState = { marker: '', merges: 0 };

/** One plain scalar resolved once: js-yaml asks `resolve` then `construct` for the same text. */
let lastText: string | undefined;
let lastValue: unknown;

const plain = new jsyaml.Type('tag:groundwork.io,2025:plain', {
  kind: 'scalar',
  resolve: (text: string) => {
    if (text === '<<') {
      lastText = text;
      lastValue = `${state.marker}${state.merges++}`;
      return true;
    }
    const resolved = resolvePlainScalar(text);
    if (resolved.tag === 'str') return false;
    lastText = text;
    lastValue = jsonNumber(resolved.value, text);
    return true;
  },
  construct: (text: string) => (text === lastText ? lastValue : resolvePlainScalar(text).value),
});

/** `!!int`, `!!float`, `!!bool`, `!!null` on a scalar: resolved as plain, and it must be of that type. */
function tagged(tag: 'int' | 'float' | 'bool' | 'null'): jsyaml.Type {
  return new jsyaml.Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string | null) => {
      const r = resolvePlainScalar(text ?? '');
      // go-yaml accepts an integer where a float is asked for.
      return r.tag === tag || (tag === 'float' && r.tag === 'int');
    },
    construct: (text: string | null) => jsonNumber(resolvePlainScalar(text ?? '').value, text ?? ''),
  });
}

/** `value`, unless it is a number JSON cannot hold (`.inf`, `.nan`): kubectl refuses those documents. */
function jsonNumber(value: unknown, text: string): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new ManifestYamlError(
      `holds ${text.slice(0, 8)}, which is no JSON number (kubectl refuses the document too): quote it for a string`,
    );
  return value;
}

/** Any other tag, as go-yaml reads it into an untyped value: a scalar's text, a collection as is. */
const anyTag = (['scalar', 'sequence', 'mapping'] as const).map(
  (kind) =>
    new jsyaml.Type('', {
      kind,
      multi: true,
      construct: (data: unknown) => (kind === 'scalar' ? (data ?? '') : data),
    }),
);

/**
 * go-yaml v2's reading of YAML into untyped values, as sigs.k8s.io/yaml hands it on to JSON: plain
 * scalars by `resolvePlainScalar`; `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`; `!!binary`
 * decoded (`!!binary aGk=` is `hi`); `!!timestamp` and unknown tags as their text; no key-order
 * or type information beyond JSON's.
 */
export const MANIFEST_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [plain],
  explicit: [
    tagged('int'),
    tagged('float'),
    tagged('bool'),
    tagged('null'),
    new jsyaml.Type('tag:yaml.org,2002:binary', {
      kind: 'scalar',
      construct: (text: string | null) =>
        Buffer.from((text ?? '').replace(/\s/g, ''), 'base64').toString('utf8'),
    }),
    new jsyaml.Type('tag:yaml.org,2002:timestamp', {
      kind: 'scalar',
      construct: (t: string | null) => t ?? '',
    }),
    ...anyTag,
  ],
});

/** The documents of a manifest stream, and the first key a mapping held twice. */
export interface ManifestDocuments {
  /** Every document (empty ones as null), in order. */
  documents: unknown[];
  /** A mapping that holds a key twice: the last value is used, as kubectl and helm use it. */
  duplicateKey?: { line: number };
}

/**
 * Reads a multi-document YAML (or JSON) stream as kubectl, client-go and helm do (sigs.k8s.io/yaml
 * over go-yaml v2, YAML 1.1): plain scalars by `resolvePlainScalar` (`0444` is 292, `yes` and `on`
 * are true, `2001-12-14` and `1:30` are text); keys as JSON keys (`on:` is `"true"`, `0x10:` is
 * `"16"`); merge keys (`<<: *base`, `<<: [*a, *b]`) applied as go-yaml v2 applies them (in
 * document order, so a merge overrides a key written before it, and the first of a list wins); a
 * key held twice keeps its last value, reported in `duplicateKey`. Throws `ManifestYamlError` for a
 * `.inf`/`.nan` (no JSON number: kubectl refuses the document) or a merge of something other than
 * mappings, and js-yaml's `YAMLException` (with its `mark`) for text that is not YAML.
 *
 * Known differences from go-yaml v2, none met in manifests: a float key is written as JavaScript
 * writes the number (`1e+06` in Go from `1e6:`), a `null` key becomes `"null"` (kubectl refuses
 * it), a `.inf:` key is refused (go-yaml makes it `".inf"`), and a mapping with integer-like keys
 * loses their order against a merge key. Pure.
 */
export function loadManifestYaml(text: string): ManifestDocuments {
  try {
    return { documents: load(text, false) };
  } catch (err) {
    if (!(err instanceof jsyaml.YAMLException) || !/duplicated mapping key/.test(err.reason)) throw err;
    return { documents: load(text, true), duplicateKey: { line: err.mark.line + 1 } };
  }
}

function load(text: string, lastKeyWins: boolean): unknown[] {
  state = { marker: `\u0000merge-${randomBytes(8).toString('hex')}:`, merges: 0 };
  lastText = undefined;
  try {
    const documents = jsyaml.loadAll(text, undefined, { schema: MANIFEST_SCHEMA, json: lastKeyWins });
    if (state.merges > 0) resolveMerges(documents, state.marker);
    return documents;
  } catch (err) {
    if (err instanceof ManifestYamlError && err.line === undefined)
      throw new ManifestYamlError(err.message, lineOfNonNumber(text));
    throw err;
  } finally {
    lastText = undefined;
    lastValue = undefined;
  }
}

/** The first line holding a plain `.inf` or `.nan` value, for the message. */
function lineOfNonNumber(text: string): number | undefined {
  const at = /(?:^|[\s:[{,-])[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)[ \t]*(?:#.*)?$/m.exec(text);
  return at ? text.slice(0, at.index).split('\n').length : undefined;
}

/**
 * Applies the merge keys of `documents` in place, innermost first (an anchor's own merges before
 * it is merged elsewhere), each value once (aliases share objects). go-yaml v2 sets a merged
 * mapping's keys over what the mapping holds so far and keys after the merge over those, and for
 * a list merges the last first, so the first wins.
 */
function resolveMerges(documents: unknown[], marker: string): void {
  const done = new Set<object>();
  let merged = 0;
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith(marker) ? '<<' : value;
    if (typeof value !== 'object' || value === null || done.has(value)) return value;
    done.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i]);
      return value;
    }
    const record = value as Record<string, unknown>;
    const entries = Object.entries(record).map(([k, v]) => [k, visit(v)] as const);
    if (!entries.some(([k]) => k.startsWith(marker))) {
      for (const [k, v] of entries) setKey(record, k, v);
      return record;
    }
    for (const k of Object.keys(record)) delete record[k];
    for (const [k, v] of entries) {
      if (!k.startsWith(marker)) {
        setKey(record, k, v);
        continue;
      }
      const sources = Array.isArray(v) ? [...v].reverse() : [v];
      for (const source of sources) {
        if (!isPlainObject(source))
          throw new ManifestYamlError(
            'has a merge key (<<) of something other than a mapping or a list of mappings',
          );
        merged += Object.keys(source).length + 1;
        if (merged > MAX_MERGED_KEYS)
          throw new ManifestYamlError(`has merge keys (<<) that copy more than ${MAX_MERGED_KEYS} keys`);
        for (const [sk, sv] of Object.entries(source)) setKey(record, sk, sv);
      }
    }
    return record;
  };
  for (let i = 0; i < documents.length; i++) documents[i] = visit(documents[i]);
}

/** Sets an own property, also one named `__proto__` (a key like any other in YAML). */
function setKey(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The documents of a file platform code includes (cdk8s `Include`, `Yaml.load`), read by
 * `loadManifestYaml`, without the empty ones, as cdk8s leaves out: null, an empty list, an empty
 * mapping.
 */
export function includedDocuments(text: string): unknown[] {
  return loadManifestYaml(text).documents.filter(
    (d) =>
      d !== null &&
      d !== undefined &&
      !(Array.isArray(d) && d.length === 0) &&
      !(isPlainObject(d) && Object.keys(d).length === 0),
  );
}
