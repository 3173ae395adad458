import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CatalogInvalidError, parseCatalog, type CatalogProblem } from '../../../src/olm/index.js';

// Line numbers in catalog problems, over files of many blobs: the line of each blob is computed
// here while the text is built, independently of the parser's line counting (issue 19, item 7).

const bundle = (i: number, version = `1.${i}.0`) => ({
  schema: 'olm.bundle',
  name: `foo.v1.${i}.0`,
  package: 'foo',
  image: `quay.io/foo/bundle:${i}`,
  properties: [{ type: 'olm.package', value: { packageName: 'foo', version } }],
});

/** 300 bundles of package foo; bundles 120 and 299 have a bad version. */
function blobs(): object[] {
  const n = 300;
  return [
    { schema: 'olm.package', name: 'foo', defaultChannel: 'stable' },
    {
      schema: 'olm.channel',
      package: 'foo',
      name: 'stable',
      entries: Array.from({ length: n }, (_, i) => ({ name: `foo.v1.${i}.0` })),
    },
    ...Array.from({ length: n }, (_, i) => bundle(i, i === 120 || i === 299 ? `v1.${i}.0` : undefined)),
  ];
}

/** The text of `parts` joined by `sep`, and the line each part starts on. */
function joined(parts: readonly string[], sep: string): { text: string; lines: number[] } {
  const lines: number[] = [];
  let line = 1;
  for (const p of parts) {
    lines.push(line);
    line += (p + sep).split('\n').length - 1;
  }
  return { text: parts.join(sep), lines };
}

function problemsOf(path: string, text: string): CatalogProblem[] {
  try {
    parseCatalog([{ path, text }]);
  } catch (err) {
    if (err instanceof CatalogInvalidError) return [...err.problems];
    throw err;
  }
  throw new Error('expected CatalogInvalidError');
}

describe('catalog problems name the line of their blob', () => {
  it('in a pretty-printed JSON stream of 302 blobs', () => {
    const { text, lines } = joined(
      blobs().map((b) => JSON.stringify(b, null, 4)),
      '\n',
    );
    expect(problemsOf('index.json', text).map((p) => p.blob)).toEqual([
      `blob 123 (line ${lines[122]}, olm.bundle foo.v1.120.0)`,
      `blob 302 (line ${lines[301]}, olm.bundle foo.v1.299.0)`,
    ]);
    expect(lines[301]).toBeGreaterThan(5000); // far enough in that a wrong count would show
  });

  it('in a YAML stream of 302 documents (the line after each `---`)', () => {
    const { text, lines } = joined(
      blobs().map((b) => `---\n${stringify(b)}`),
      '',
    );
    expect(problemsOf('index.yaml', text).map((p) => p.blob)).toEqual([
      `blob 123 (line ${(lines[122] as number) + 1}, olm.bundle foo.v1.120.0)`,
      `blob 302 (line ${(lines[301] as number) + 1}, olm.bundle foo.v1.299.0)`,
    ]);
  });

  it('in a JSON stream whose strings hold braces, brackets, escaped quotes and trailing backslashes', () => {
    const tricky = [
      '{"schema":"x.example/notes","a":"} ] { [","b":"\\"}\\"","c":"ends in a backslash \\\\"}',
      '{"schema":"x.example/notes","d":"\\\\\\"}{"}',
      '\n\n{"schema":"x.example/notes","e":["{", "}", "\\\\\\\\"]}',
      JSON.stringify({ schema: 'olm.bundle', name: 'bad', package: 'foo', properties: [] }, null, 2),
    ];
    const problems = problemsOf('index.json', `${tricky.join('\n')}\n`);
    // The three note blobs are read whole (schemas opm does not know are skipped), so the bundle is
    // the fourth blob, on line 6: each of the first two takes a line, the third starts two lines down.
    expect(problems.map((p) => `${p.blob}: ${p.path}`)).toEqual([
      'blob 4 (line 6, olm.bundle bad): properties',
    ]);
  });

  it('a file with 200,000 unreadable blobs is one CatalogInvalidError, not a stack overflow', () => {
    // A spread of every problem of a file into push() overflowed the call stack past about 120k.
    const problems = problemsOf('index.json', '{"a":}\n'.repeat(200_000));
    expect(problems).toHaveLength(200_000);
    expect(problems[199_999]?.blob).toBe('blob 200000 (line 200000)');
  });
});
