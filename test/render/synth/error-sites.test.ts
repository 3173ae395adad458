import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

const HEAD = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
`;
const TAIL = `  },
});
`;

describe('synth errors point at the platform code, as editors count', () => {
  it('names the line of main.ts where build() threw', async () => {
    const dir = platformDir(`${HEAD}    void platform;\n    throw new Error('boom');\n${TAIL}`);
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('platform/main.ts:7: build() threw: boom');
  });

  it('names the line of main.ts that created a construct with bad props', async () => {
    const dir = platformDir(
      `${HEAD}    new Platform(platform, 'inner', { openshiftVersion: 'four' });\n${TAIL}`,
    );
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/platform\/inner: openshiftVersion: .*\n\s+at platform\/main\.ts:6\n/);
  });

  it('gives a syntax error 1-based columns and leaves "the previous revision" to the agent', async () => {
    const dir = platformDir(`${HEAD}    const x = ;\n${TAIL}`);
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    // "    const x = ;": the ';' is the 15th character of line 6.
    expect(r.stderr).toContain('platform/main.ts:6:15');
    expect(r.stderr).not.toContain('previous revision');
  });
});
