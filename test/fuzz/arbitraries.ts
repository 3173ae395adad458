import fc from 'fast-check';
import { stringify } from 'yaml';

/**
 * Input generators for the fuzz properties: whatever a user (or a hostile pull request) can put in a
 * file Groundwork reads. Each mixes random text, YAML fragments that stress parsers (aliases, tags,
 * deep nesting, merge keys, directives, control characters) and mutations of a real, valid document,
 * so that both the parser and the validation behind it are reached.
 */

/** YAML pieces that have broken parsers: aliases and bombs, tags, directives, nesting, odd scalars. */
const NASTY_YAML = [
  'a: &a [1, 2]\nb: *a\n',
  '*undefined_alias\n',
  'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
  'a: &a\n  b: *a\n',
  '!!js/function "function(){}"\n',
  'a: !!binary aGVsbG8=\n',
  'a: !custom {x: 1}\n',
  '%YAML 1.1\n---\na: yes\n',
  '%TAG ! tag:example.com,2000:\n---\na: !x 1\n',
  '<<: {a: 1}\n',
  'a: {<<: *x}\n',
  '? [complex, key]\n: value\n',
  '? {a: 1}\n: b\n',
  '---\n---\n---\n',
  '...\n',
  '\ufeffname: x\n',
  'name: "\\u0000"\n',
  'a:\tb\n',
  '\tname: x\n',
  'a: [1, 2\n',
  'a: {b: 1\n',
  '"unterminated\n',
  "a: 'it''s'\n",
  'a: |\n  text\n b: 1\n',
  '- a\nb: 1\n',
  'a: 0x1F\nb: 0o17\nc: 1e400\nd: .nan\ne: -.inf\n',
  'a: 99999999999999999999999999999999\n',
  'a: ~\nb: null\nc: Null\n',
  '__proto__: {polluted: true}\n',
  'constructor: {prototype: {polluted: true}}\n',
  'a: b: c\n',
  '- - - - - - - - - - x\n',
  `${'['.repeat(2000)}${']'.repeat(2000)}\n`,
  `${'{a: '.repeat(2000)}1${'}'.repeat(2000)}\n`,
  `${'- '.repeat(500)}x\n`,
  `a: ${'x'.repeat(100_000)}\n`,
];

/** Random text: ASCII, full Unicode, and lines of YAML-significant characters. */
export const randomText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(
      fc.constantFrom(
        ':',
        '-',
        ' ',
        '\n',
        '{',
        '}',
        '[',
        ']',
        '&',
        '*',
        '!',
        '|',
        '>',
        '#',
        '"',
        "'",
        'a',
        '1',
        '%',
        '@',
        '`',
        ',',
        '?',
        '\t',
      ),
      {
        maxLength: 120,
      },
    )
    .map((cs) => cs.join('')),
);

/** A few NASTY_YAML pieces glued together, sometimes after random text. */
export const nastyYaml = fc
  .tuple(fc.subarray(NASTY_YAML, { minLength: 1, maxLength: 3 }), fc.option(randomText, { nil: undefined }))
  .map(([pieces, text]) => (text ?? '') + pieces.join(''));

/** Any JSON-like value, as YAML or JSON text. */
const anyDocument = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.boolean())
  .map(([v, json]) => (json ? JSON.stringify(v) : stringify(v)));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One mutation of a JSON value: a key removed, a value replaced (by any type), an item duplicated. */
function mutate(value: Json, rng: Rng, replacement: Json): Json {
  if (Array.isArray(value)) {
    if (value.length === 0 || rng.nextInt(0, 4) === 0) return [...value, replacement];
    const i = rng.nextInt(0, value.length - 1);
    const copy = [...value];
    switch (rng.nextInt(0, 3)) {
      case 0:
        copy.splice(i, 1);
        return copy;
      case 1:
        copy[i] = replacement;
        return copy;
      case 2:
        copy.push(copy[i]!);
        return copy;
      default:
        copy[i] = mutate(copy[i]!, rng, replacement);
        return copy;
    }
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0 || rng.nextInt(0, 5) === 0)
      return { ...value, [`k${rng.nextInt(0, 9)}`]: replacement };
    const key = keys[rng.nextInt(0, keys.length - 1)]!;
    const copy = { ...value };
    switch (rng.nextInt(0, 2)) {
      case 0:
        delete copy[key];
        return copy;
      case 1:
        copy[key] = replacement;
        return copy;
      default:
        copy[key] = mutate(copy[key]!, rng, replacement);
        return copy;
    }
  }
  return replacement;
}

/** Replacement values that probe types and limits. */
const replacement: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    '',
    ' ',
    '../../etc/passwd',
    '\u0000',
    'a'.repeat(5000),
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

/** A small deterministic integer source (xorshift32), seeded by fast-check so runs replay. */
interface Rng {
  nextInt(min: number, max: number): number;
}

function rngOf(seed: number): Rng {
  let s = seed | 0 || 1;
  return {
    nextInt(min, max) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return min + ((s >>> 0) % (max - min + 1));
    },
  };
}

/**
 * Valid documents with 1-4 random mutations, as YAML or JSON text, sometimes truncated at a random
 * point (a half-written file).
 */
export function mutationsOf(valid: readonly Json[], format: 'yaml' | 'json' | 'either' = 'either') {
  return fc
    .tuple(
      fc.constantFrom(...valid),
      fc.array(replacement, { minLength: 1, maxLength: 4 }),
      fc.integer(),
      fc.constantFrom<'yaml' | 'json'>(...(format === 'either' ? (['yaml', 'json'] as const) : [format])),
      fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 5 },
        { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 },
      ),
    )
    .map(([doc, replacements, seed, fmt, cut]) => {
      const rng = rngOf(seed);
      let value = doc;
      for (const r of replacements) value = mutate(value, rng, r);
      const text = fmt === 'json' ? JSON.stringify(value) : stringify(value);
      return cut === undefined ? text : text.slice(0, Math.floor(text.length * cut));
    });
}

/** Any text a user could put in a YAML or JSON file Groundwork reads. */
export function fileContents(valid: readonly Json[], format: 'yaml' | 'json' | 'either' = 'either') {
  return fc.oneof(
    { arbitrary: mutationsOf(valid, format), weight: 5 },
    { arbitrary: nastyYaml, weight: 2 },
    { arbitrary: anyDocument, weight: 2 },
    { arbitrary: randomText, weight: 1 },
  );
}

export type { Json };
