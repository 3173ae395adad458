import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import { kustomizeBuildArgs } from '../../../src/render/kustomize/kustomize-args.js';
import { kustomizeFailure, outsideRootProblem } from '../../../src/render/kustomize/kustomize-failure.js';

describe('kustomizeBuildArgs', () => {
  it('puts the directory after --, with no flag', () => {
    expect(kustomizeBuildArgs('/repo/deploy/prod', '/repo')).toEqual(['build', '--', '/repo/deploy/prod']);
  });

  it.each(['/etc', '/repo-other/x', 'deploy/prod', '--enable-helm', '/repo/a\n--enable-exec'])(
    'refuses %j',
    (dir) => {
      let err: unknown;
      try {
        kustomizeBuildArgs(dir, '/repo');
      } catch (e) {
        err = e;
      }
      expect(hasCode(err, 'UnsafeToolArgument')).toBe(true);
    },
  );

  it('property: the argv is always build, --, and one absolute path inside the root', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('/', '.', 'a', '-', '\n', 'repo') }), (dir) => {
        let argv: string[];
        try {
          argv = kustomizeBuildArgs(dir, '/repo');
        } catch {
          return;
        }
        expect(argv.slice(0, 2)).toEqual(['build', '--']);
        expect(argv).toHaveLength(3);
        expect(argv[2]).toMatch(/^\/repo(\/|$)/);
        expect(argv[2]!.split('/')).not.toContain('..');
      }),
      { numRuns: 3000 },
    );
  });
});

// kustomize v5.8.2's own messages (kustomize build of /r/app with the entry shown), for a path
// outside the kustomization root that exists and one that does not.
const ROOTS = ['/r/app'];
const MESSAGES: [string, string, string][] = [
  [
    'resources',
    "Error: accumulating resources: accumulation err='accumulating resources from '../../o/exists.yaml': security; file '/o/exists.yaml' is not in or below '/r/app'': must build at directory: '/o/exists.yaml': file is not directory",
    "Error: accumulating resources: accumulation err='accumulating resources from '../../o/missing.yaml': evalsymlink failure on '/o/missing.yaml' : lstat /o/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/o/missing.yaml' : lstat /o/missing.yaml: no such file or directory",
  ],
  [
    'configMapGenerator files',
    "Error: loading KV pairs: file sources: [../../o/exists.yaml]: security; file '/o/exists.yaml' is not in or below '/r/app'",
    "Error: loading KV pairs: file sources: [../../o/missing.yaml]: evalsymlink failure on '/o/missing.yaml' : lstat /o/missing.yaml: no such file or directory",
  ],
  [
    'a directory',
    "Error: accumulating resources: accumulation err='accumulating resources from '../../o': '/o' must resolve to a file': couldn't make target for path '/o': unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '/o'",
    "Error: accumulating resources: accumulation err='accumulating resources from '../../nothere': evalsymlink failure on '/nothere' : lstat /nothere: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/nothere' : lstat /nothere: no such file or directory",
  ],
  [
    'a link in the root',
    "Error: accumulating resources: accumulation err='accumulating resources from 'link.yaml': security; file '/r/app/link.yaml' is not in or below '/r/app'': must build at directory: '/r/app/link.yaml': file is not directory",
    "Error: accumulating resources: accumulation err='accumulating resources from 'link.yaml': evalsymlink failure on '/r/app/link.yaml' : lstat /o/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/r/app/link.yaml' : lstat /o/missing.yaml: no such file or directory",
  ],
];

describe('kustomizeFailure: no oracle of files outside the kustomization', () => {
  it.each(MESSAGES)('%s: an existing and a missing target give one message', (_what, exists, missing) => {
    const a = kustomizeFailure(exists, { dir: 'app', roots: ROOTS });
    const b = kustomizeFailure(missing, { dir: 'app', roots: ROOTS });
    expect(a).toEqual(b);
    expect(a).toEqual(outsideRootProblem('app'));
  });

  it("keeps kustomize's own words for a failure that is not about loading a file", () => {
    const p = kustomizeFailure(
      'Error: map[string]interface {}(nil): yaml: unmarshal errors in /r/other/x.yaml',
      {
        dir: 'app',
        roots: ROOTS,
      },
    );
    expect(p.problem).toContain('yaml: unmarshal errors');
  });

  it("keeps kustomize's own words for a problem inside the root", () => {
    const p = kustomizeFailure(
      "Error: accumulating resources: accumulation err='accumulating resources from 'cm.yaml': evalsymlink failure on '/r/app/cm.yaml' : lstat /r/app/cm.yaml: no such file or directory'\n",
      { dir: 'app', roots: ROOTS },
    );
    expect(p.problem).toMatch(/^kustomize build failed: accumulating resources/);
    expect(p.problem).toContain('/r/app/cm.yaml');
  });

  it('property: any failure to load a path outside the roots is the one message', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.stringMatching(/^\/[a-z]{1,8}(\/[a-z.]{1,8}){0,3}$/),
        fc.constantFrom(
          'no such file or directory',
          'must resolve to a file',
          'file is not directory',
          'is a directory',
        ),
        fc.string({ maxLength: 40 }),
        (before, path, why, after) => {
          fc.pre(!path.startsWith('/r/app'));
          expect(
            kustomizeFailure(`Error: ${before} '${path}': ${why} ${after}`, { dir: 'app', roots: ROOTS }),
          ).toEqual(outsideRootProblem('app'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
