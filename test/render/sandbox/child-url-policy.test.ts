import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { configMapPlatform } from '../../harness/config-map-platform.js';
import { platformDir } from '../../harness/platform-dir.js';

// The platform child reads groundwork.yaml too (synthesize), so it must read it under the caller's
// URL policy: a loopback alert URL is refused unless GROUNDWORK_ALLOW_LOOPBACK_URLS=1 (the test
// suite's, a developer's), and accepted with it. The agent e2e with alert receivers on loopback
// (notifications-gitea) failed every synth when the child's stripped environment dropped it.
const GROUNDWORK_YAML = [
  'name: url-policy',
  'entry: platform/main.ts',
  'overlays: overlays',
  'defaultOverlay: dev',
  'environments:',
  '  - name: dev',
  '    overlays: [dev]',
  '    ref: main',
  '    notifications:',
  '      secret: gw-alerts',
  '      alerts:',
  '        - name: ops',
  '          type: webhook',
  '          url: http://127.0.0.1:9/alerts',
  '',
].join('\n');

const repo = () => platformDir(configMapPlatform(''), { files: { 'groundwork.yaml': GROUNDWORK_YAML } });

describe("the platform child reads groundwork.yaml under the caller's URL policy", () => {
  it('GROUNDWORK_ALLOW_LOOPBACK_URLS=1: a loopback alert URL synthesizes', async () => {
    const r = await groundwork(['synth', '--dir', repo()], { env: { GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' } });
    expect(r.stderr).not.toContain('loopback');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: ConfigMap');
  });

  it('without it: refused, with the line and the reason', async () => {
    const r = await groundwork(['synth', '--dir', repo()], { env: { GROUNDWORK_ALLOW_LOOPBACK_URLS: '' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'groundwork.yaml:14: environments[0].notifications.alerts[0].url: url names a loopback address (this machine)',
    );
    expect(r.stdout).not.toContain('kind: ConfigMap');
  });
});
