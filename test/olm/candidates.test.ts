import { describe, expect, it } from 'vitest';
import { candidateReasons, updateCandidates, type ChannelEntry } from '../../src/olm/index.js';
import { loadCatalogFixture } from './helpers.js';

const entry = (more: Partial<ChannelEntry>): ChannelEntry => ({ name: 'op.v2.0.0', skips: [], ...more });

describe('candidateReasons (OLM cache predicates)', () => {
  it.each([
    { title: 'replaces by name', e: entry({ replaces: 'op.v1.0.0' }), want: ['replaces'] },
    { title: 'skips by name', e: entry({ skips: ['op.v0.9.0', 'op.v1.0.0'] }), want: ['skips'] },
    {
      title: 'skipRange contains the version',
      e: entry({ skipRange: '>=1.0.0 <2.0.0' }),
      want: ['skipRange'],
    },
    { title: 'skipRange upper bound is exclusive', e: entry({ skipRange: '<1.0.0' }), want: [] },
    {
      title: 'every edge at once',
      e: entry({ replaces: 'op.v1.0.0', skips: ['op.v1.0.0'], skipRange: '<2.0.0' }),
      want: ['replaces', 'skips', 'skipRange'],
    },
    {
      title: 'a name in another edge does not count',
      e: entry({ replaces: 'op.v1.0.1', skips: ['op.v1.0.2'] }),
      want: [],
    },
    {
      title: 'an entry is never its own candidate',
      e: entry({ name: 'op.v1.0.0', skipRange: '<2.0.0' }),
      want: [],
    },
  ])('$title', ({ e, want }) => {
    expect(candidateReasons(e, { csv: 'op.v1.0.0', version: '1.0.0' })).toEqual(want);
  });

  it('skipRange matches pre-releases, as blang/semver does', () => {
    expect(
      candidateReasons(entry({ skipRange: '<1.0.0' }), { csv: 'op.v1.0.0-rc.1', version: '1.0.0-rc.1' }),
    ).toEqual(['skipRange']);
  });

  it('without a version only the name edges can match', () => {
    expect(
      candidateReasons(entry({ skipRange: '<2.0.0' }), { csv: 'op.v1.0.0', version: undefined }),
    ).toEqual([]);
  });
});

describe('updateCandidates', () => {
  it('lists candidates nearest the head first and never offers skipped entries', async () => {
    const ecr = await loadCatalogFixture('ecr-secret-operator');
    const alpha = ecr.packages.get('ecr-secret-operator')?.channels.get('alpha');
    if (!alpha) throw new Error('fixture changed');
    // v0.5.0 skips v0.3.2, v0.4.1 skips v0.3.2, v0.4.0 replaces v0.3.2 but is skipped by v0.5.0.
    const got = updateCandidates(alpha, { csv: 'ecr-secret-operator.v0.3.2', version: '0.3.2' });
    expect(got.map((c) => [c.entry.name, c.reasons])).toEqual([
      ['ecr-secret-operator.v0.5.0', ['skips']],
      ['ecr-secret-operator.v0.4.1', ['skips']],
    ]);
  });
});
