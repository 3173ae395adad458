import { describe, expect, it } from 'vitest';
import { originsInMessage, type ValueOrigin } from '../../../src/render/synth/overlays.js';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

// A platform on 4.14 whose cluster version target comes from overlay values: a 4.16 target skips 4.15.
const PLATFORM = `import { ClusterVersionTarget, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ clusterVersion: z.object({ channel: z.string(), version: z.string() }) }),
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.14' });
    new ClusterVersionTarget(platform, 'version', values.clusterVersion);
  },
});
`;

const overlay = (version: string) =>
  `# cluster version\nclusterVersion:\n  channel: stable-4.16\n  version: "${version}"\n`;

describe('errors about values name the overlay file and line they came from', () => {
  it('synth: a target that skips a minor points at the overlay line that set it', async () => {
    const dir = platformDir(PLATFORM, { files: { 'overlays/dev.yaml': overlay('4.16.3') } });
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[overlay dev] platform/version');
    expect(r.stderr).toContain('value from overlays/dev.yaml:4 (clusterVersion.version)');
    // The construct's line in the platform, and no stack trace (no frame with a column, no node:).
    expect(r.stderr).toContain('\n    at platform/main.ts:');
    expect(r.stderr).not.toMatch(/\n\s+at .*(:\d+:\d+|node:)/);
  });

  it('synth --all-overlays: reports every overlay, each error naming its overlay', async () => {
    const dir = platformDir(PLATFORM, {
      files: {
        'overlays/dev.yaml': overlay('4.16.3'),
        'overlays/prod.yaml': `extends: dev\nclusterVersion:\n  version: "4.16.5"\n`,
      },
    });
    const r = await groundwork(['synth', '--dir', dir, '--all-overlays']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[overlay dev] platform/version');
    expect(r.stderr).toContain('value from overlays/dev.yaml:4 (clusterVersion.version)');
    // prod extends dev: its version comes from prod.yaml, its channel from dev.yaml.
    expect(r.stderr).toContain('[overlay prod] platform/version');
    expect(r.stderr).toContain('value from overlays/prod.yaml:3 (clusterVersion.version)');
  });

  it('schema errors in an overlay name their overlay too', async () => {
    const dir = platformDir(PLATFORM, {
      files: { 'overlays/dev.yaml': `clusterVersion:\n  channel: stable-4.16\n  version: 4\n` },
    });
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\[overlay dev\] overlays\/dev\.yaml:3: clusterVersion\.version/);
  });
});

describe('originsInMessage', () => {
  const origins: ValueOrigin[] = [
    { key: 'kepler.pin', value: 'kepler-operator.v0.21.0', at: 'overlays/prod.yaml:7' },
    { key: 'replicas', value: '3', at: 'overlays/prod.yaml:2' },
    { key: 'channel', value: 'alpha', at: 'overlays/prod.yaml:8' },
  ];

  it('finds values quoted as whole words, never short ones or parts of longer words', () => {
    expect(originsInMessage('pin kepler-operator.v0.21.0 is not in channel alphabet', origins)).toEqual([
      origins[0],
    ]);
    expect(originsInMessage('pin kepler-operator.v0.21.0. Fix it', origins)).toEqual([origins[0]]);
    expect(originsInMessage('pin kepler-operator.v0.21.01 is unknown; 3 replicas', origins)).toEqual([]);
    expect(originsInMessage('channel "alpha" has no head', origins)).toEqual([origins[2]]);
  });
});
