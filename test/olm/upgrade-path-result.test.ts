import { describe, expect, it } from 'vitest';
import { upgradePath } from '../../src/olm/index.js';
import { expectGolden, loadCatalogFixture } from './helpers.js';

describe('upgrade path rendering', async () => {
  const latest = await loadCatalogFixture('registry-testdata-latest');
  const ecr = await loadCatalogFixture('ecr-secret-operator');
  const found = upgradePath(latest, {
    package: 'foo',
    channel: 'beta',
    from: 'foo.v0.1.0',
    to: 'foo.v0.3.1',
  });
  const jumped = upgradePath(ecr, {
    package: 'ecr-secret-operator',
    channel: 'alpha',
    from: 'ecr-secret-operator.v0.3.2',
    to: 'ecr-secret-operator.v0.4.1',
  });

  it('toString is one line', () => {
    expect(String(found)).toBe(
      'foo/beta: foo.v0.1.0 -> foo.v0.2.0 (replaces, skipRange) -> foo.v0.3.1 (replaces): 2 InstallPlans',
    );
    expect(
      String(upgradePath(latest, { package: 'foo', channel: 'beta', from: undefined, to: 'foo.v0.1.0' })),
    ).toBe('foo/beta: (fresh install) -> foo.v0.1.0 (startingCSV): 1 InstallPlan');
    expect(String(jumped)).toMatch(
      /^ecr-secret-operator\/alpha: ecr-secret-operator.v0.3.2 cannot reach ecr-secret-operator.v0.4.1 \[jumped-past\]: .* \(fix: pin ecr-secret-operator.v0.5.0, where OLM lands, or install ecr-secret-operator.v0.4.1 fresh \(startingCSV\)\)$/,
    );
  });

  it('Markdown for a path and for an unreachable pin', async () => {
    await expectGolden('upgrade-path-found.md', found.toMarkdown());
    await expectGolden('upgrade-path-jumped-past.md', jumped.toMarkdown());
  });

  it('results are plain data: JSON keeps the fields', () => {
    expect(JSON.parse(JSON.stringify(jumped))).toMatchObject({ ok: false, reason: 'jumped-past' });
  });
});
