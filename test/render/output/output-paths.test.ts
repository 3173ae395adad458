import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import type { StageName } from '../../../src/core/stages.js';
import { objectFile, overlayNameProblem, overlayOutputDir } from '../../../src/render/output/output-paths.js';

const manifest = (
  kind: string,
  name: string,
  opts: { ns?: string; apiVersion?: string; stage?: string } = {},
) => ({
  stage: (opts.stage ?? 'resources') as StageName,
  object: {
    apiVersion: opts.apiVersion ?? 'v1',
    kind,
    metadata: { name, ...(opts.ns !== undefined ? { namespace: opts.ns } : {}) },
  },
});

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('objectFile', () => {
  it('names a file by stage, kind, group, namespace and name (the manifest index format)', () => {
    expect(objectFile(manifest('ConfigMap', 'a', { ns: 'team' }), 'yaml')).toBe(
      '03-resources/configmap_team_a.yaml',
    );
    expect(
      objectFile(
        manifest('ClusterRole', 'system:aggregate', { apiVersion: 'rbac.authorization.k8s.io/v1' }),
        'json',
      ),
    ).toBe('03-resources/clusterrole_rbac.authorization.k8s.io_system:aggregate.json');
  });

  it.each([
    manifest('ConfigMap', '../../x', { ns: 'a' }),
    manifest('ConfigMap', '..', { ns: 'a' }),
    manifest('ClusterRole', '..', { apiVersion: 'rbac.authorization.k8s.io/v1' }),
    manifest('ClusterRole', 'a\nb', { apiVersion: 'rbac.authorization.k8s.io/v1' }),
    manifest('ConfigMap', 'a', { ns: '../..' }),
    manifest('../../x', 'a'),
    manifest('ConfigMap', 'a', { apiVersion: '../x/v1' }),
    manifest('ConfigMap', 'a', { stage: '../../..' }),
  ])('refuses %j', (m) => {
    expect(
      hasCode(
        thrown(() => objectFile(m, 'yaml')),
        'OutputPathRefused',
      ),
    ).toBe(true);
  });

  it('property: any accepted object file is two plain segments that stay below the overlay directory', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '.', '/', '-', ':', 'A', '\n', '%', '_', '1'),
      maxLength: 20,
    });
    fc.assert(
      fc.property(
        text,
        text,
        fc.option(text, { nil: undefined }),
        fc.constantFrom('v1', 'rbac.authorization.k8s.io/v1', '../v1', 'a/b/v1'),
        fc.constantFrom('resources', 'crds', '..', '../x'),
        (kind, name, ns, apiVersion, stage) => {
          let file: string;
          try {
            file = objectFile(manifest(kind, name, { ns, apiVersion, stage }), 'yaml');
          } catch (err) {
            expect(hasCode(err, 'OutputPathRefused')).toBe(true);
            return;
          }
          const segments = file.split('/');
          expect(segments).toHaveLength(2);
          expect(normalize(join('/out', file)).startsWith('/out/')).toBe(true);
          for (const s of segments) expect(s).not.toMatch(/^\.\.?$/);
          // eslint-disable-next-line no-control-regex
          expect(file).not.toMatch(/[\u0000-\u001f]/);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('overlay directories', () => {
  it.each(['dev', 'clusters/prod-eu-1', 'a_b.c'])('%s is a plain overlay name', (o) => {
    expect(overlayNameProblem(o)).toBeUndefined();
  });

  it.each(['../x', '..', '.', 'a/../b', '/abs', 'a//b', '', '.hidden', '-x', 'a\nb', 'a/b/c/d/e/f/g/h/i'])(
    '%j is refused',
    (o) => {
      expect(overlayNameProblem(o)).toBeDefined();
    },
  );

  it('takes only an overlay the synth asked for, and never one under a link that leads out', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'gw-outdir-')));
    const out = join(root, 'out');
    mkdirSync(join(root, 'elsewhere'));
    mkdirSync(out);
    symlinkSync(join(root, 'elsewhere'), join(out, 'clusters'));
    expect(await overlayOutputDir(out, 'dev', ['dev'])).toBe(join(out, 'dev'));
    const notAsked = await overlayOutputDir(out, 'prod', ['dev']).catch((e: unknown) => e);
    expect(hasCode(notAsked, 'OutputPathRefused')).toBe(true);
    const linked = await overlayOutputDir(out, 'clusters/eu', ['clusters/eu']).catch((e: unknown) => e);
    expect(hasCode(linked, 'OutputPathRefused')).toBe(true);
  });
});
