import { describe, expect, it } from 'vitest';
import { includedDocuments, loadManifestYaml, ManifestYamlError } from '../../src/core/manifest-yaml.js';
import { resolvePlainScalar } from '../../src/core/manifest-scalars.js';
import { parseObjects } from '../../src/core/yaml-files.js';
import { KUBECTL_KEYS, KUBECTL_SCALARS } from './kubectl-scalars.js';

const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\ndata:\n${data}`;
const dataOf = (text: string) =>
  (loadManifestYaml(configMap(text)).documents[0] as { data: Record<string, unknown> }).data;

describe('loadManifestYaml: a manifest read as kubectl reads it (go-yaml v2, YAML 1.1)', () => {
  it.each(KUBECTL_SCALARS)('plain %j is what kubectl sends: %j', (scalar, sent) => {
    expect(dataOf(`  v: ${scalar}\n`).v).toEqual(sent);
  });

  it.each(KUBECTL_KEYS)('key %j is sent as %j', (key, sent) => {
    expect(Object.keys(dataOf(`  ${key}: v\n`))).toEqual([sent]);
  });

  it('reads a quoted or !!str-tagged scalar as the text it is', () => {
    expect(dataOf(`  a: "0444"\n  b: 'yes'\n  c: !!str 0755\n  d: !!str\n`)).toEqual({
      a: '0444',
      b: 'yes',
      c: '0755',
      d: '',
    });
  });

  it('reads the explicit scalar tags as go-yaml does, and unknown tags as the text or collection', () => {
    expect(
      dataOf(
        '  i: !!int "0x10"\n  f: !!float 1\n  b: !!bool yes\n  nil: !!null ""\n  bin: !!binary aGVsbG8=\n  ts: !!timestamp 2001-12-14\n  local: !foo bar\n  set: !!set {a, b}\n  map: !custom {a: 1}\n',
      ),
    ).toEqual({
      i: 16,
      f: 1,
      b: true,
      nil: null,
      bin: 'hello',
      ts: '2001-12-14',
      local: 'bar',
      set: { a: null, b: null },
      map: { a: 1 },
    });
    expect(() => dataOf('  i: !!int abc\n')).toThrow(/explicit tag/);
  });

  it('applies merge keys in document order, as go-yaml v2: a merge overrides a key written before it, the first of a list wins', () => {
    const data = dataOf(
      [
        '  a: &a {x: 1, w: 1}',
        '  b: &b {x: 2, z: 2}',
        '  c: &c',
        '    <<: *a',
        '    v: 5',
        '  before:',
        '    x: 9',
        '    <<: *a',
        '  list:',
        '    <<: [*a, *b]',
        '  reversed:',
        '    <<: [*b, *a]',
        '    z: 7',
        '  nested:',
        '    <<: *c',
        '    "<<": quoted is a key',
        '  twice:',
        '    <<: *a',
        '    <<: *b',
        '  value: <<',
        '',
      ].join('\n'),
    );
    expect(data).toMatchObject({
      before: { x: 1, w: 1 },
      list: { x: 1, w: 1, z: 2 },
      reversed: { x: 2, w: 1, z: 7 },
      nested: { x: 1, w: 1, v: 5, '<<': 'quoted is a key' },
      twice: { x: 2, w: 1, z: 2 },
      value: '<<',
    });
    expect(JSON.stringify(data)).not.toContain('\\u0000');
  });

  it('refuses a merge of something other than mappings', () => {
    expect(() => dataOf('  a:\n    <<: 3\n')).toThrow(ManifestYamlError);
    expect(() => dataOf('  a:\n    <<: [{x: 1}, 3]\n')).toThrow(/merge key/);
  });

  it('keeps the last value of a key held twice, as kubectl, and says where', () => {
    const read = loadManifestYaml(configMap('  dup: 1\n  other: 2\n  dup: 3\n'));
    expect((read.documents[0] as { data: unknown }).data).toEqual({ dup: 3, other: 2 });
    expect(read.duplicateKey).toEqual({ line: 8 });
    expect(loadManifestYaml(configMap('  a: 1\n')).duplicateKey).toBeUndefined();
  });

  it('refuses .inf and .nan, which are no JSON numbers (kubectl refuses the document), with the line', () => {
    for (const v of ['.inf', '-.Inf', '.NaN']) {
      const err = (() => {
        try {
          dataOf(`  a: 1\n  b: ${v}\n`);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ManifestYamlError);
      expect((err as ManifestYamlError).line).toBe(7);
    }
    expect(dataOf('  a: ".inf"\n').a).toBe('.inf');
  });

  it('keeps empty documents as null, and includedDocuments leaves them out as cdk8s does', () => {
    const text = '---\n---\n{}\n---\n[]\n---\na: 0644\n';
    expect(loadManifestYaml(text).documents).toEqual([null, {}, [], { a: 420 }]);
    expect(includedDocuments(text)).toEqual([{ a: 420 }]);
  });
});

describe('resolvePlainScalar', () => {
  it('names the type go-yaml resolves', () => {
    expect(resolvePlainScalar('0444')).toEqual({ tag: 'int', value: 292 });
    expect(resolvePlainScalar('08')).toEqual({ tag: 'float', value: 8 });
    expect(resolvePlainScalar('off')).toEqual({ tag: 'bool', value: false });
    expect(resolvePlainScalar('')).toEqual({ tag: 'null', value: null });
    expect(resolvePlainScalar('1:30')).toEqual({ tag: 'str', value: '1:30' });
  });
});

describe('parseObjects reads files as kubectl does', () => {
  it('a file mode written in octal is the mode kubectl sends', () => {
    const [cm] = parseObjects(configMap('  mode: 0644\n  enabled: on\n'), 'cm.yaml');
    expect(cm!.data).toEqual({ mode: 420, enabled: true });
  });
});
