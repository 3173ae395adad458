import { describe, expect, it } from 'vitest';
import {
  chooseIsolation,
  DEFAULT_RENDER_IDENTITY,
  probeIsolation,
  type IsolationProbes,
} from '../../../src/render/sandbox/isolation.js';

const PROGRAMS = {
  unshare: '/usr/bin/unshare',
  setpriv: '/usr/bin/setpriv',
  prlimit: '/usr/bin/prlimit',
  mount: '/usr/bin/mount',
  chroot: '/usr/sbin/chroot',
};
const NONE: IsolationProbes = {
  inRendererPod: false,
  userNamespaces: false,
  root: false,
  rootNamespaces: false,
  programs: PROGRAMS,
};

describe('chooseIsolation: the strongest isolation the machine allows, decided purely', () => {
  it.each([
    ['in the renderer pod', { inRendererPod: true, userNamespaces: true }, {}, { mode: 'pod' }],
    ['user namespaces (a laptop, most Linux hosts)', { userNamespaces: true }, {}, { mode: 'namespaces' }],
    [
      'user namespaces, as root too',
      { userNamespaces: true, root: true, rootNamespaces: true },
      {},
      { mode: 'namespaces' },
    ],
    [
      'root, user namespaces refused, root may make namespaces',
      { root: true, rootNamespaces: true },
      {},
      { mode: 'uid', identity: DEFAULT_RENDER_IDENTITY },
    ],
    [
      'root with another render identity',
      { root: true, rootNamespaces: true },
      { identity: { uid: 7000, gid: 7001 } },
      { mode: 'uid', identity: { uid: 7000, gid: 7001 } },
    ],
    [
      'trusting the repository never weakens what the machine can do',
      { userNamespaces: true },
      { trustRepository: true },
      { mode: 'namespaces' },
    ],
    ['nothing available, the repository trusted', {}, { trustRepository: true }, { mode: 'trusted' }],
    ['root without any namespaces, trusted', { root: true }, { trustRepository: true }, { mode: 'trusted' }],
  ])('%s', (_what, probes, opts, isolation) => {
    expect(chooseIsolation({ ...NONE, ...probes }, opts)).toEqual({ ok: true, isolation });
  });

  it.each([
    [
      'not root, user namespaces refused',
      {},
      /unprivileged user namespaces are not allowed here, and this process is not root/,
    ],
    [
      'root, no namespaces at all',
      { root: true },
      /runs as root, but neither user namespaces nor PID, network and mount namespaces/,
    ],
    [
      'unshare missing from PATH',
      { programs: { ...PROGRAMS, unshare: undefined } },
      /\(unshare not found on PATH\)/,
    ],
  ])('refuses: %s, saying why', (_what, probes, why) => {
    const choice = chooseIsolation({ ...NONE, ...probes });
    expect(choice.ok).toBe(false);
    expect(!choice.ok && choice.why).toMatch(why);
  });
});

describe('probeIsolation on this machine', () => {
  it('finds unprivileged user namespaces and the programs, and never adds what it was told to leave out', async () => {
    const found = await probeIsolation();
    expect(found.userNamespaces).toBe(true);
    expect(found.programs).toMatchObject({ unshare: expect.any(String), setpriv: expect.any(String) });
    expect((await probeIsolation({ userNamespaces: false })).userNamespaces).toBe(false);
    expect((await probeIsolation({ userNamespaces: false, rootNamespaces: false })).rootNamespaces).toBe(
      false,
    );
  });

  it("probes root's own namespaces only where user namespaces are refused", async () => {
    const asRoot = process.geteuid?.() === 0;
    expect(await probeIsolation({ rootNamespaces: true })).toMatchObject({
      userNamespaces: true,
      rootNamespaces: false,
    });
    expect(await probeIsolation({ userNamespaces: false })).toMatchObject({
      userNamespaces: false,
      rootNamespaces: asRoot,
    });
  });

  it('honours GROUNDWORK_RENDERER_POD=1 only when the renderer server asks (rendererPod)', async () => {
    const env = { PATH: '/nonexistent', GROUNDWORK_RENDERER_POD: '1' };
    expect((await probeIsolation({ env })).inRendererPod).toBe(false);
    expect((await probeIsolation({ env, rendererPod: false })).inRendererPod).toBe(false);
    expect((await probeIsolation({ env, rendererPod: true })).inRendererPod).toBe(true);
    expect((await probeIsolation({ env: { PATH: '/nonexistent' }, rendererPod: true })).inRendererPod).toBe(
      false,
    );
  });

  it('finds nothing to isolate with on a PATH without the util-linux programs', async () => {
    const found = await probeIsolation({ env: { PATH: '/nonexistent' } });
    expect(found).toMatchObject({ userNamespaces: false, rootNamespaces: false, programs: {} });
  });
});
