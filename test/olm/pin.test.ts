import { describe, expect, it } from 'vitest';
import { PinUnreachableError, wantedCSVs } from '../../src/olm/index.js';
import { loadCatalogFixture } from './helpers.js';

describe('wantedCSVs', async () => {
  const kepler = await loadCatalogFixture('kepler-operator');
  const latest = await loadCatalogFixture('registry-testdata-latest');
  const k = (v: string) => `kepler-operator.${v}`;
  const base = { package: 'kepler-operator', channel: 'alpha' };

  it('the hops from the installed CSV to the pin, without the installed CSV', () => {
    // v0.21.0 skips v0.20.0; v0.22.0 replaces v0.21.0.
    const r = wantedCSVs(
      kepler,
      { ...base, installed: k('v0.20.0'), pin: k('v0.22.0') },
      'Subscription/kepler/kepler',
    );
    expect(r.ok && [...r.wanted]).toEqual([k('v0.21.0'), k('v0.22.0')]);
  });

  it('at the pin nothing is wanted', () => {
    const r = wantedCSVs(
      kepler,
      { ...base, installed: k('v0.22.0'), pin: k('v0.22.0') },
      'Subscription/kepler/kepler',
    );
    expect(r.ok && [...r.wanted]).toEqual([]);
  });

  it('before the first install: startingCSV, then on to the pin', () => {
    const r = wantedCSVs(
      kepler,
      { ...base, installed: undefined, startingCSV: k('v0.21.0'), pin: k('v0.23.0') },
      'x',
    );
    expect(r.ok && r.path.hops.map((h) => `${h.csv} ${h.via.join(',')}`)).toEqual([
      'kepler-operator.v0.21.0 startingCSV',
      'kepler-operator.v0.22.0 replaces',
      'kepler-operator.v0.23.0 replaces',
    ]);
  });

  it('before the first install without startingCSV OLM installs the head, so a lower pin is a downgrade', () => {
    const r = wantedCSVs(
      kepler,
      { ...base, installed: undefined, pin: k('v0.22.0') },
      'Subscription/kepler/kepler',
    );
    expect(r.ok ? 'ok' : r.path.reason).toBe('downgrade');
    const head = wantedCSVs(kepler, { ...base, installed: undefined, pin: k('v0.24.0') }, 'x');
    expect(head.ok && [...head.wanted]).toEqual([k('v0.24.0')]);
  });

  it('an unreachable pin is a PinUnreachableError naming the Subscription, with the reason and a fix', () => {
    // foo.v0.3.1 skips foo.v0.3.0: from foo.v0.2.0, OLM goes to foo.v0.3.1.
    const r = wantedCSVs(
      latest,
      { package: 'foo', channel: 'beta', installed: 'foo.v0.2.0', pin: 'foo.v0.3.0' },
      'Subscription/ops/foo',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(PinUnreachableError);
    expect(r.error.code).toBe('PinUnreachable');
    expect(r.error.reason).toBe('target-skipped');
    expect(r.error.subject).toBe('Subscription/ops/foo');
    expect(r.error.message).toMatch(
      /^Subscription\/ops\/foo: pin foo.v0.3.0 is unreachable \(target-skipped\): /,
    );
    expect(r.error.fix).toBe('pin foo.v0.3.1, where OLM lands, or install foo.v0.3.0 fresh (startingCSV)');
  });

  it('an installed CSV the catalog dropped is matched by its version', () => {
    // foo.v0.2.0's skipRange <0.2.0 holds 0.1.5.
    const r = wantedCSVs(
      latest,
      {
        package: 'foo',
        channel: 'beta',
        installed: 'foo.v0.1.5',
        installedVersion: '0.1.5',
        pin: 'foo.v0.3.1',
      },
      'x',
    );
    expect(r.ok && [...r.wanted]).toEqual(['foo.v0.2.0', 'foo.v0.3.1']);
  });
});
