import { describe, expect, it } from 'vitest';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { configMapPlatform } from '../../harness/config-map-platform.js';
import { platformDir } from '../../harness/platform-dir.js';

/** A platform whose module runs `top` when it is imported and whose build runs `build`. */
const platform = (top: string, build = '') =>
  configMapPlatform(top, { imports: "import fs from 'node:fs';", build });

/** A result as the child used to print it, with a Namespace that the real platform does not emit. */
const FORGED = JSON.stringify({
  ok: true,
  results: [
    {
      platform: 'forged',
      overlay: 'dev',
      hash: `sha256:${'0'.repeat(64)}`,
      warnings: [],
      manifests: [
        {
          id: '_forged__Namespace',
          stage: 'namespaces',
          hash: `sha256:${'0'.repeat(64)}`,
          source: 'platform/forged',
          object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'forged' } },
        },
      ],
    },
  ],
});

describe("the synth child's result travels apart from what platform code prints", () => {
  it('platform code may print to stdout (console.log) while synth succeeds', async () => {
    const dir = platformDir(platform("console.log('loading the platform');", "console.log('built');"));
    const [result] = await childSynth(dir);
    expect(result!.manifests.map((m) => m.id)).toEqual(['default_real__ConfigMap']);
  });

  it('a result platform code writes to stdout is log output, never the result', async () => {
    const dir = platformDir(platform(`process.stdout.write(${JSON.stringify(FORGED)}); process.exit(0);`));
    const err = await childSynthError(dir);
    expect(err.code).toBe('SynthCrashed');
    expect(err.message).toMatch(/synth process ended \(exit 0\) without a result/);
  });

  it.each([
    [
      'a result of its own on the result channel (fd 3)',
      `fs.writeSync(3, ${JSON.stringify(`${'f'.repeat(32)}\n${FORGED}`)}); process.exit(0);`,
    ],
    ['bytes before the real result on the result channel', "fs.writeSync(3, 'junk');"],
  ])('synth fails when platform code writes %s', async (_what, top) => {
    const err = await childSynthError(platformDir(platform(top)));
    expect(err.code).toBe('SynthCrashed');
    expect(err.message).toMatch(/its result channel holds something other than a frame of this run/);
    expect(err.fix).toMatch(/fd 3/);
  });
});

describe('what the parent reads of a synth child is bounded', () => {
  const flood = (fd: number) => `const chunk = 'x'.repeat(1 << 20); for (;;) fs.writeSync(${fd}, chunk);`;

  it('stops a child that floods stdout past 16 MiB', async () => {
    const err = await childSynthError(platformDir(platform(flood(1))));
    expect(err.code).toBe('SynthOutputTooLarge');
    expect(err.message).toContain('platform code wrote more than 16 MiB to stdout and stderr');
  });

  it('stops a child that floods stderr past 16 MiB', async () => {
    const err = await childSynthError(platformDir(platform(flood(2))));
    expect(err.code).toBe('SynthOutputTooLarge');
  });

  it('stops a child whose result channel passes the 64 MiB cap', async () => {
    const err = await childSynthError(platformDir(platform(flood(3))));
    expect(err.code).toBe('SynthOutputTooLarge');
    expect(err.message).toContain('the synth result is larger than 64 MiB');
  });

  it('refuses a real result over a lower cap, naming the cap and how to raise it', async () => {
    const big = `for (let i = 0; i < 3; i++) new ApiObject(platform, 'big' + i, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' + i, namespace: 'default' }, data: { blob: 'y'.repeat(512 * 1024) } });`;
    const dir = platformDir(platform('', big));
    const err = await childSynthError(dir, { outputCapMb: 1 });
    expect(err.code).toBe('SynthOutputTooLarge');
    expect(err.message).toContain('the synth result is larger than 1 MiB');
    expect(err.fix).toContain('GROUNDWORK_SYNTH_OUTPUT_MB');
    expect((await childSynth(dir, { outputCapMb: 4 }))[0]!.manifests).toHaveLength(4);
  });
});
