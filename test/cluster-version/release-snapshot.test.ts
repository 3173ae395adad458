import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBlockedEdge, parseChannelFile } from '../../src/cluster-version/graph-data.js';
import {
  SNAPSHOT_FILE,
  blockedEdgesOf,
  channelsOf,
  loadReleaseSnapshot,
  parseReleaseSnapshot,
} from '../../src/cluster-version/release-snapshot.js';
import { dataPath } from '../../src/core/data-dir.js';
import { graphDataText } from './fixtures.js';

const snapshot = await loadReleaseSnapshot();
const shipped = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as Record<string, unknown>;

describe('the shipped graph-data snapshot', () => {
  it('is dated and names its commit, the same commit data/PROVENANCE.md gives for graph-data', () => {
    expect(snapshot.label).toBe('openshift/cincinnati-graph-data @ 731d0424 (2026-08-21)');
    expect(snapshot.date).toBe('2026-08-21T22:40:20+00:00');
    const provenance = readFileSync(dataPath('PROVENANCE.md'), 'utf8');
    expect(provenance).toContain(`openshift/cincinnati-graph-data @ ${snapshot.commit.slice(0, 12)}`);
    expect(provenance).toContain('update-graphs/graph-data-snapshot.json');
  });

  it('lists every channel of the data and every release ever published in one', () => {
    expect(snapshot.channels.size).toBe(76);
    expect(channelsOf(snapshot, '4.14.38')).toEqual([
      'candidate-4.14',
      'candidate-4.15',
      'candidate-4.16',
      'eus-4.14',
      'eus-4.16',
      'fast-4.14',
      'fast-4.15',
      'fast-4.16',
      'stable-4.14',
      'stable-4.15',
      'stable-4.16',
    ]);
    // Published membership, not the name's rule: stable-4.16 stops at 4.14.51.
    expect(channelsOf(snapshot, '4.14.58')).not.toContain('stable-4.16');
    // A release named per architecture in the data (4.2.14+amd64) is the release 4.2.14.
    expect(channelsOf(snapshot, '4.2.14')).not.toEqual([]);
    expect(channelsOf(snapshot, '4.2.14+amd64')).toEqual([]);
    expect(channelsOf(snapshot, '4.14.99')).toEqual([]);
    expect(channelsOf(snapshot, '4.16.0-ec.5')).toContain('candidate-4.16');
  });

  it('holds each channel file copied unchanged into data/update-graphs/graph-data (same commit) as it is', () => {
    const dir = dataPath('update-graphs', 'graph-data');
    const channels = readdirSync(dir).filter((f) => !f.startsWith('blocked-'));
    expect(channels.length).toBeGreaterThan(0);
    for (const file of channels) {
      const channel = parseChannelFile(graphDataText(file), file);
      expect(snapshot.channels.get(channel.name), file).toEqual(channel.versions);
    }
  });

  it('holds each blocked-edge file copied into data/update-graphs/graph-data as it is, risk included', () => {
    const dir = dataPath('update-graphs', 'graph-data');
    for (const file of readdirSync(dir).filter((f) => f.startsWith('blocked-'))) {
      const copy = parseBlockedEdge(graphDataText(file), file);
      const match = snapshot.blockedEdges.filter(
        (b) => b.to === copy.to && b.from.source === copy.from && b.risk?.name === copy.risk?.name,
      );
      expect(match, file).toHaveLength(1);
      if (copy.risk) expect(match[0]!.risk).toEqual(copy.risk);
      if (copy.fixedIn) expect(match[0]!.fixedIn).toBe(copy.fixedIn);
    }
  });

  it('says which updates the service makes conditional or drops, by architecture', () => {
    // blocked-edges/4.14.0-ReconciledPlatformSCC.yaml: from 4[.]13[.](17|18)[+].*
    expect(blockedEdgesOf(snapshot, '4.13.17', '4.14.0').map((b) => b.risk?.name)).toContain(
      'ReconciledPlatformSCC',
    );
    expect(blockedEdgesOf(snapshot, '4.13.19', '4.14.0').map((b) => b.risk?.name)).not.toContain(
      'ReconciledPlatformSCC',
    );
    // blocked-edges/4.1.10.yaml drops every update into 4.1.10.
    expect(blockedEdgesOf(snapshot, '4.1.9', '4.1.10')).toMatchObject([{ to: '4.1.10' }]);
    expect(blockedEdgesOf(snapshot, '4.1.9', '4.1.10')[0]!.risk).toBeUndefined();
    // 4.3.29+s390x: a block for one architecture only.
    const s390x = snapshot.blockedEdges.filter((b) => b.to === '4.3.29' && b.architecture === 's390x');
    expect(s390x).toHaveLength(1);
    expect(blockedEdgesOf(snapshot, '4.3.28', '4.3.29', 'amd64')).not.toContain(s390x[0]);
  });

  it('is what scripts/graph-data-snapshot.mjs writes: sorted channel names, risks defined once', () => {
    expect(Object.keys(shipped.channels as object)).toEqual(Object.keys(shipped.channels as object).sort());
    expect(shipped).toMatchObject({
      kind: 'GraphDataSnapshot',
      license: 'Apache-2.0',
      source: 'https://github.com/openshift/cincinnati-graph-data',
    });
    expect(String(shipped.notice)).toContain('holds no edges');
  });
});

describe('parseReleaseSnapshot', () => {
  const base = {
    kind: 'GraphDataSnapshot',
    source: 'https://github.com/openshift/cincinnati-graph-data',
    commit: '731d04247cc1f01bbeb4806755d80537d834c61d',
    date: '2026-08-21T22:40:20+00:00',
    channels: { 'stable-4.14': ['4.14.1'] },
    risks: {},
    blockedEdges: [],
  };

  it('refuses what is not a snapshot, naming the file and every problem', () => {
    expect(() => parseReleaseSnapshot('{', 'snap.json')).toThrowError(/^snap\.json.*not JSON/);
    const bad = {
      ...base,
      blockedEdges: [
        { to: '4.14.1', from: '.*', risk: 'Nowhere' },
        { to: '4.14.1', from: '(' },
      ],
    };
    expect(() => parseReleaseSnapshot(JSON.stringify(bad), 'snap.json')).toThrowError(
      /snap\.json: 2 problem\(s\): blockedEdges\[0\]\.risk: Nowhere is not in risks; blockedEdges\[1\]\.from: not a regular expression/,
    );
    expect(() => parseReleaseSnapshot(JSON.stringify({ ...base, commit: 'main' }), 'snap.json')).toThrowError(
      /commit/,
    );
  });
});
