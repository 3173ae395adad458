import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentImageFor,
  defaultAgentImage,
  PUBLISHED_AGENT_IMAGE_VERSIONS,
} from '../../src/install/agent-image.js';
import { hasCode } from '../../src/core/errors.js';
import { packageVersion } from '../../src/core/package-root.js';
import { groundwork } from '../harness/cli.js';

describe('agentImageFor (issue 32, item 10: the image is not published)', () => {
  it('refuses the default image of an unpublished version, with the fix', () => {
    expect(PUBLISHED_AGENT_IMAGE_VERSIONS).not.toContain('0.1.0');
    let caught: unknown;
    try {
      agentImageFor({ version: '0.1.0', allowUnpublished: false });
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, 'AgentImageUnpublished')).toBe(true);
    expect(String(caught)).toContain('ghcr.io/groundwork-platform/groundwork:0.1.0');
    expect(String(caught)).toContain('--image <registry>/groundwork:0.1.0');
    expect(String(caught)).toContain('--allow-unpublished-image');
  });

  it('takes an explicit image as given, and the default when allowed', () => {
    expect(
      agentImageFor({ image: 'registry.example.com/gw:1', version: '0.1.0', allowUnpublished: false }),
    ).toBe('registry.example.com/gw:1');
    expect(agentImageFor({ version: '0.1.0', allowUnpublished: true })).toBe(defaultAgentImage('0.1.0'));
  });
});

// No kubeconfig anywhere: a bootstrap that got past the image check would stop at the kubeconfig.
const noKube = () => ({
  KUBECONFIG: join(tmpdir(), 'gw-no-such-kubeconfig'),
  HOME: mkdtempSync(join(tmpdir(), 'gw-home-')),
  KUBERNETES_SERVICE_HOST: '',
});
const args = ['bootstrap', '--repo', 'https://git.example.com/acme/platform.git', '--overlay', 'test'];

describe('groundwork bootstrap and the default image', () => {
  it('refuses the unpublished default before it reads a kubeconfig or creates anything', async () => {
    const r = await groundwork(args, { env: noKube() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `the default agent image ${defaultAgentImage(packageVersion())} is not published`,
    );
    expect(r.stderr).not.toMatch(/kubeconfig/i);
  }, 60_000);

  it.each([[['--image', 'registry.example.com/groundwork:test']], [['--allow-unpublished-image']]])(
    'goes on with %o (to the missing kubeconfig here)',
    async (extra) => {
      const r = await groundwork([...args, ...extra], { env: noKube() });
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain('is not published');
      expect(r.stderr).toMatch(/kubeconfig/i);
    },
    60_000,
  );
});

describe('groundwork hub bootstrap and the default image', () => {
  const hub = ['hub', 'bootstrap'];

  it('refuses the unpublished default before it reads a kubeconfig or creates anything', async () => {
    const r = await groundwork(hub, { env: noKube() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `the default agent image ${defaultAgentImage(packageVersion())} is not published`,
    );
    expect(r.stderr).toContain('--allow-unpublished-image');
    expect(r.stderr).not.toMatch(/kubeconfig/i);
  }, 60_000);

  it.each([
    [['--image', 'registry.example.com/groundwork:test']],
    [['--allow-unpublished-image']],
    [['--no-deployment']], // no pod runs the image
  ])(
    'goes on with %o (to the missing kubeconfig here)',
    async (extra) => {
      const r = await groundwork([...hub, ...extra], { env: noKube() });
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain('is not published');
      expect(r.stderr).toMatch(/kubeconfig/i);
    },
    60_000,
  );

  it('prints with the default image (--print creates nothing), and with --image the one given', async () => {
    const printed = await groundwork([...hub, '--print'], { env: noKube() });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(`image: ${defaultAgentImage(packageVersion())}`);
    const given = await groundwork([...hub, '--print', '--image', 'registry.example.com/groundwork:test'], {
      env: noKube(),
    });
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('image: registry.example.com/groundwork:test');
    expect(given.stdout).not.toContain(defaultAgentImage(packageVersion()));
  }, 60_000);
});
