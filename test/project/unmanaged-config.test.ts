import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { loadProjectConfig } from '../../src/project/config.js';
import { UNMANAGED_OFF, unmanagedFor, unmanagedSchema } from '../../src/project/unmanaged-config.js';

function load(config: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-unmanaged-'));
  writeFileSync(join(dir, 'groundwork.yaml'), config);
  return loadProjectConfig(dir);
}

describe('unmanaged: in groundwork.yaml', () => {
  it('is off when absent', async () => {
    const config = await load('name: p\n');
    expect(config.unmanaged).toBeUndefined();
    expect(unmanagedFor(config, 'dev')).toBe(UNMANAGED_OFF);
  });

  it('reads report, namespaces, kinds and ignore rules', async () => {
    const config = await load(
      [
        'name: p',
        'unmanaged:',
        '  report: true',
        '  namespaces: [shop, shop]',
        '  kinds: [ConfigMap, coordination.k8s.io/Lease]',
        '  ignore:',
        '    - { kind: Secret, name: "cert-*-tls" }',
      ].join('\n'),
    );
    expect(config.unmanaged).toEqual({
      report: true,
      failOn: false,
      namespaces: ['shop'],
      kinds: [
        { group: '', kind: 'ConfigMap' },
        { group: 'coordination.k8s.io', kind: 'Lease' },
      ],
      ignore: [{ kind: 'Secret', name: 'cert-*-tls' }],
    });
  });

  it('reports when the block is there, unless report: false; refuses failOn with report: false', () => {
    expect(unmanagedSchema.parse({})).toEqual({ report: true, failOn: false, ignore: [] });
    expect(unmanagedSchema.parse({ report: false })).toMatchObject({ report: false });
    expect(unmanagedSchema.parse({ failOn: true })).toMatchObject({ report: true, failOn: true });
    const r = unmanagedSchema.safeParse({ failOn: true, report: false });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe('failOn: true reports them: drop report: false');
  });

  it('takes an environment setting over the platform one for its overlays', async () => {
    const config = await load(
      [
        'name: p',
        'unmanaged: { report: true }',
        'environments:',
        '  - { name: prod, overlays: [prod], ref: main, unmanaged: { failOn: true } }',
      ].join('\n'),
    );
    expect(unmanagedFor(config, 'prod')).toMatchObject({ report: true, failOn: true });
    expect(unmanagedFor(config, 'dev')).toMatchObject({ report: true, failOn: false });
  });

  it('says what is wrong with a kind, an empty rule and an unknown key, with the line', async () => {
    const err = (await load(
      ['name: p', 'unmanaged:', '  kinds: [apps/v1/Deployment]', '  ignore: [{}]', '  warn: true'].join('\n'),
    ).catch((e: unknown) => e)) as GroundworkError;
    expect(err).toBeInstanceOf(GroundworkError);
    expect(err.code).toBe('InvalidConfig');
    expect(err.message).toContain('"apps/v1/Deployment" is not a kind: write Kind for the core group');
    expect(err.message).toContain('an empty rule would ignore everything');
    expect(err.message).toMatch(/line \d: unmanaged: Unrecognized key: "warn"/);
    expect(err.fix).toContain('unmanaged');
  });
});
