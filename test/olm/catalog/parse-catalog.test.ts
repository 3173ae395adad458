import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  CatalogInvalidError,
  listChannels,
  listPackages,
  parseCatalog,
  type CatalogProblem,
} from '../../../src/olm/index.js';
import { catalogFixturePath, readFixture } from '../helpers.js';

const pkg = (name: string) => `---\nschema: olm.package\nname: ${name}\ndefaultChannel: stable\n`;
const bundle = (name: string, version: string, extra = '') =>
  `---\nschema: olm.bundle\nname: ${name}\npackage: foo\nimage: quay.io/foo/bundle:${version}\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: ${version}\n${extra}`;
const GOOD = [
  pkg('foo'),
  '---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n  skipRange: ">=0.9.0 <1.1.0"\n',
  bundle('foo.v1.0.0', '1.0.0'),
  bundle('foo.v1.1.0', '1.1.0'),
].join('');

/** Problems of a catalog that must fail, as `file|blob|path|message` strings. */
function problemsOf(files: { path: string; text: string }[]): CatalogProblem[] {
  try {
    parseCatalog(files);
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogInvalidError);
    return [...(err as CatalogInvalidError).problems];
  }
  throw new Error('expected CatalogInvalidError');
}

describe('parseCatalog', () => {
  it('reads packages, channels (head and order) and bundle versions', () => {
    const catalog = parseCatalog([{ path: 'index.yaml', text: GOOD }]);
    expect(listPackages(catalog)).toEqual([{ name: 'foo', defaultChannel: 'stable', channels: ['stable'] }]);
    const [stable] = listChannels(catalog, 'foo');
    expect(stable).toMatchObject({
      head: 'foo.v1.1.0',
      isDefault: true,
      versions: [
        { csv: 'foo.v1.0.0', version: '1.0.0' },
        { csv: 'foo.v1.1.0', version: '1.1.0' },
      ],
    });
    expect(catalog.packages.get('foo')?.channels.get('stable')?.entries[1]).toEqual({
      name: 'foo.v1.1.0',
      replaces: 'foo.v1.0.0',
      skips: [],
      skipRange: '>=0.9.0 <1.1.0',
    });
    expect(catalog.packages.get('foo')?.bundles.get('foo.v1.1.0')?.image).toBe('quay.io/foo/bundle:1.1.0');
  });

  it('reads a JSON stream (as `opm render` writes it) the same as the YAML it came from', async () => {
    // Derived from the fixture: every YAML document becomes one pretty-printed JSON object, back to back.
    const yamlText = await readFixture('catalogs/registry-testdata-latest.yaml');
    const json = parseAllDocuments(yamlText)
      .map((d) => JSON.stringify(d.toJS(), null, 2))
      .join('\n');
    const fromYaml = parseCatalog([{ path: 'index.yaml', text: yamlText }]);
    const fromJson = parseCatalog([{ path: 'index.json', text: json }]);
    expect(fromJson).toEqual(fromYaml);
    const compact = parseCatalog([{ path: 'index.json', text: json.replaceAll(/\s*\n\s*/g, '') }]);
    expect(compact).toEqual(fromYaml);
  });

  it('spreads one catalog over several files', () => {
    const [p, ch, b1, b2] = GOOD.split(/(?=^---$)/m);
    const catalog = parseCatalog([
      { path: 'foo/package.yaml', text: `${p}${ch}` },
      { path: 'foo/bundles.yaml', text: `${b1}${b2}` },
    ]);
    expect(listChannels(catalog, 'foo')[0]?.head).toBe('foo.v1.1.0');
  });

  it('ignores schemas it does not know, like opm', () => {
    const text = `${GOOD}---\nschema: olm.deprecations\npackage: foo\nentries: []\n---\nschema: example.com/custom\nanything: 1\n`;
    expect(listPackages(parseCatalog([{ path: 'index.yaml', text }]))).toHaveLength(1);
  });

  it('loads every catalog fixture', async () => {
    for (const name of [
      'registry-testdata-latest',
      'registry-testdata-old',
      'ecr-secret-operator',
      'nfs-provisioner-operator',
      'kepler-operator',
    ] as const) {
      const text = await readFixture(`catalogs/${name}.yaml`);
      expect(() => parseCatalog([{ path: catalogFixturePath(name), text }])).not.toThrow();
    }
  });

  describe('collects every problem, naming file, blob and field', () => {
    it.each([
      {
        title: 'a skipRange that is not a semver range',
        text: GOOD.replace('">=0.9.0 <1.1.0"', 'not-a-range'),
        want: {
          blob: 'blob 2 (line 6, olm.channel stable)',
          path: 'entries.1.skipRange',
          message: 'not a semver range',
        },
      },
      {
        title: 'a bundle version with a v prefix',
        text: GOOD.replace('version: 1.1.0', 'version: v1.1.0'),
        want: { blob: 'blob 4 (line 25, olm.bundle foo.v1.1.0)', path: 'properties.0.value.version' },
      },
      {
        title: 'a bundle without an olm.package property',
        text: GOOD.replace(
          /- type: olm.package\n {2}value:\n {4}packageName: foo\n {4}version: 1.1.0\n/,
          '- type: olm.gvk\n  value: {}\n',
        ),
        want: {
          blob: 'blob 4 (line 25, olm.bundle foo.v1.1.0)',
          path: 'properties',
          message: 'want exactly one olm.package property (it carries the version), found 0',
        },
      },
      {
        title: 'a channel entry without a name',
        text: GOOD.replace('- name: foo.v1.0.0\n', '- replaces: foo.v0.9.0\n'),
        want: { blob: 'blob 2 (line 6, olm.channel stable)', path: 'entries.0.name' },
      },
      {
        title: 'a blob without a schema',
        text: `${GOOD}---\nname: stray\n`,
        want: { blob: 'blob 5 (line 35)', path: 'schema', message: 'missing: every blob needs a schema' },
      },
      {
        title: 'a YAML syntax error',
        text: `${GOOD}---\nschema: olm.package\nname: [unclosed\n`,
        want: { blob: 'blob 5 (line 35)' },
      },
    ])('$title', ({ text, want }) => {
      const problems = problemsOf([{ path: 'cat/index.yaml', text }]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ file: 'cat/index.yaml', ...want });
    });

    it('cross-blob problems: unknown package, entry without bundle, bundle in no channel, duplicates, default channel', () => {
      const text = [
        pkg('foo').replace('defaultChannel: stable', 'defaultChannel: fast'),
        '---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n- name: foo.v2.0.0\n  replaces: foo.v1.0.0\n',
        '---\nschema: olm.channel\npackage: foo\nname: stable\nentries: []\n',
        '---\nschema: olm.channel\npackage: bar\nname: stable\nentries: []\n',
        bundle('foo.v1.0.0', '1.0.0'),
        bundle('foo.v1.0.0', '1.0.0'),
        bundle('foo.v3.0.0', '3.0.0'),
      ].join('');
      const got = problemsOf([{ path: 'index.yaml', text }]).map(
        (p) => `${p.blob} ${p.path ?? ''}: ${p.message}`,
      );
      expect(got).toEqual([
        'blob 3 (line 14, olm.channel stable) name: channel stable is already declared at index.yaml blob 2 (line 6, olm.channel stable)',
        'blob 4 (line 19, olm.channel stable) package: package bar has no olm.package blob',
        'blob 6 (line 34, olm.bundle foo.v1.0.0) name: bundle foo.v1.0.0 is already declared at index.yaml blob 5 (line 24, olm.bundle foo.v1.0.0)',
        'blob 1 (line 2, olm.package foo) defaultChannel: default channel fast is not a channel of package foo',
        'blob 2 (line 6, olm.channel stable) entries.1.name: entry foo.v2.0.0 has no olm.bundle blob',
        'blob 7 (line 44, olm.bundle foo.v3.0.0) : bundle foo.v3.0.0 is in no channel of package foo',
      ]);
    });

    it('JSON streams: a bad object is reported and the next one still read', () => {
      const text =
        '{"schema":"olm.package","name":"foo"}\n{"schema": olm.channel}\n{"schema":"olm.bundle","name":"x"}';
      const problems = problemsOf([{ path: 'index.json', text }]);
      expect(problems[0]).toMatchObject({ file: 'index.json', blob: 'blob 2 (line 2)' });
      // blob 3 was still read: its own validation problems follow.
      expect(problems.map((p) => `${p.blob} ${p.path ?? ''}`)).toEqual([
        'blob 2 (line 2) ',
        'blob 3 (line 3, olm.bundle x) package',
        'blob 3 (line 3, olm.bundle x) properties',
        'blob 1 (line 1, olm.package foo) ',
      ]);
      expect(problemsOf([{ path: 'index.json', text: '{"schema":"olm.package"' }])[0]?.message).toBe(
        'unterminated JSON object',
      );
      expect(problemsOf([{ path: 'index.json', text: '[1]' }])[0]?.message).toBe('expected a JSON object');
    });

    it('the error names the catalog, lists every problem and has a stable code and a fix', () => {
      let err: unknown;
      try {
        parseCatalog([{ path: 'cat/index.yaml', text: GOOD.replace('version: 1.1.0', 'version: one') }], {
          subject: 'cat',
        });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CatalogInvalidError);
      const e = err as CatalogInvalidError;
      expect(e.code).toBe('CatalogInvalid');
      expect(e.subject).toBe('cat');
      expect(e.fix).toMatch(/opm validate/);
      expect(e.message).toContain(
        'cat/index.yaml: blob 4 (line 25, olm.bundle foo.v1.1.0): properties.0.value.version: not a semantic version',
      );
    });
  });
});
