import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { canonicalize, toYaml } from '../../../src/render/synth/canonical.js';

// Strings that some YAML reader resolves to something else when left plain: 1.1 bools, nulls,
// ints (octal, hex, binary, sexagesimal, underscores), floats, timestamps and the merge key; 1.2's
// octal. Argo CD's manifests carry a quoted "no", which kubectl (a 1.1 reader) must read as a string.
const TRICKY = [
  'no',
  'No',
  'NO',
  'yes',
  'y',
  'Y',
  'n',
  'on',
  'Off',
  'true',
  'False',
  '~',
  'null',
  'Null',
  '',
  '010',
  '0o17',
  '-0o17',
  '0x1F',
  '0b101',
  '1_000',
  '1:20',
  '190:20:30',
  '1.',
  '.5',
  '-.5',
  '1e3',
  '1E+3',
  '+.inf',
  '.NaN',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '<<',
  '=',
  '12',
  '+12',
];

function readsBack(text: string, version: '1.1' | '1.2'): unknown {
  return parse(text, { version, merge: false });
}

describe('toYaml', () => {
  it.each(TRICKY)('keeps %j a string for YAML 1.1 and 1.2 readers', (value) => {
    const obj = { data: { [value]: value }, list: [value] };
    const text = toYaml(obj);
    expect(readsBack(text, '1.1')).toEqual(obj);
    expect(readsBack(text, '1.2')).toEqual(obj);
  });

  it('quotes a merge-key lookalike so that a 1.1 reader with merges does not merge', () => {
    const text = toYaml({ '<<': 'x' });
    expect(() => parse(text, { version: '1.1' })).not.toThrow();
    expect(parse(text, { version: '1.1' })).toEqual({ '<<': 'x' });
  });

  it('keeps a __proto__ key (a legal ConfigMap data key) as a key', () => {
    const obj = JSON.parse('{"data":{"__proto__":"x","a":"y"}}') as unknown;
    expect(Object.keys((canonicalize(obj) as { data: object }).data)).toEqual(['__proto__', 'a']);
    expect(readsBack(toYaml(obj), '1.1')).toEqual(obj);
    expect(readsBack(toYaml(obj), '1.2')).toEqual(obj);
  });

  it('reads back as the same JSON under both versions, for arbitrary JSON values', () => {
    const trickyOrAny = fc.oneof(fc.constantFrom(...TRICKY), fc.string());
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        trickyOrAny,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(trickyOrAny, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(trickyOrAny, json, { maxKeys: 5 }), (obj) => {
        const text = toYaml(obj);
        const expected = JSON.parse(JSON.stringify(obj)) as unknown;
        expect(readsBack(text, '1.1')).toEqual(expected);
        expect(readsBack(text, '1.2')).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('is byte-identical for equal values in any key order', () => {
    expect(toYaml({ b: 'no', a: { d: 1, c: 'on' } })).toBe(toYaml({ a: { c: 'on', d: 1 }, b: 'no' }));
  });
});
