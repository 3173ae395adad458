// Counting a JSON text's values before parsing it: what parsing would cost is known from the bytes.

/** The most a JSON text may hold before it is parsed. */
export interface JsonBounds {
  /** Values of every kind: objects, arrays, strings (keys included), numbers, literals. */
  readonly maxValues: number;
  /** Objects and arrays: each costs the parser about 100 bytes, even empty. */
  readonly maxContainers: number;
  /** Nesting of objects and arrays. */
  readonly maxDepth: number;
}

/** What a JSON text holds, or the first bound it passes. */
export type JsonShape =
  | { ok: true; values: number; containers: number; depth: number }
  | { ok: false; exceeded: keyof JsonBounds; limit: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Counts the values, containers and depth of the JSON text in `bytes` from `start`, stopping at the
 * first bound passed, in one pass over the bytes and without allocating. It does not check that
 * the text is JSON (the parser does, after): on malformed input it still stops within the bounds.
 * A scalar is counted where a token starts after `[`, `,`, `:` or at the top. Pure.
 *
 * @example
 * jsonShape(Buffer.from('{"a":[1,2]}'), 0, bounds); // { ok: true, values: 5, containers: 2, depth: 2 }
 */
export function jsonShape(bytes: Uint8Array, start: number, bounds: JsonBounds): JsonShape {
  let values = 0;
  let containers = 0;
  let depth = 0;
  let maxDepth = 0;
  // Whether the next non-blank byte outside a string starts a value (top, after `[`, `,` or `:`).
  let expectValue = true;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      values++;
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
      expectValue = false;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      values++;
      containers++;
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      if (containers > bounds.maxContainers)
        return { ok: false, exceeded: 'maxContainers', limit: bounds.maxContainers };
      if (depth > bounds.maxDepth) return { ok: false, exceeded: 'maxDepth', limit: bounds.maxDepth };
      expectValue = true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
      expectValue = false;
    } else if (b === COMMA || b === COLON) {
      expectValue = true;
    } else if (b > 0x20 && expectValue) {
      values++; // a number or a literal begins
      expectValue = false;
    }
    if (values > bounds.maxValues) return { ok: false, exceeded: 'maxValues', limit: bounds.maxValues };
  }
  return { ok: true, values, containers, depth: maxDepth };
}

/**
 * The bounds of a result frame of at most `capBytes`: a value per 8 bytes and an object or array per
 * 64 (a 64 MiB cap: 8 million values, 1 million objects and arrays; an empty object costs the parser
 * about 100 bytes, a small number 8). A 5,000-object platform's result, about 2 MB, holds some
 * 300,000 values and 40,000 objects and arrays. Nesting to 100.
 */
export function frameBounds(capBytes: number): JsonBounds {
  return {
    maxValues: Math.max(1024, Math.floor(capBytes / 8)),
    maxContainers: Math.max(256, Math.floor(capBytes / 64)),
    maxDepth: 100,
  };
}
