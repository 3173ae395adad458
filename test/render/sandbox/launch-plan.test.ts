import { describe, expect, it } from 'vitest';
import {
  launchArgv,
  rootPlan,
  type LaunchSpec,
  type RootStep,
} from '../../../src/render/sandbox/launch-plan.js';

const SPEC: LaunchSpec = {
  isolation: { mode: 'namespaces' },
  programs: {
    unshare: '/usr/bin/unshare',
    setpriv: '/usr/bin/setpriv',
    prlimit: '/usr/bin/prlimit',
    mount: '/usr/bin/mount',
    chroot: '/usr/sbin/chroot',
  },
  dataLimitBytes: 1024,
  node: '/usr/bin/node',
  driver: '/gw/src/render/sandbox/enter-root.mjs',
  root: '/tmp/root',
  system: [
    { path: '/usr', kind: 'dir' },
    { path: '/bin', kind: 'link', target: 'usr/bin' },
    { path: '/etc/passwd', kind: 'file' },
  ],
  view: {
    readOnly: [
      { path: '/gw', kind: 'dir' },
      { path: '/gw/node_modules', kind: 'dir' },
      { path: '/usr/lib/node_modules/x', kind: 'dir' },
      { path: '/home/u/checkout', kind: 'dir' },
      { path: '/home/u/.cache/groundwork/tools/helm', kind: 'file' },
    ],
    writable: ['/home/u/.cache/groundwork/render/local'],
    hidden: ['/home/u/checkout/.git'],
    substitutes: [],
  },
  renderer: ['/usr/bin/node', '/cache/renderer.mjs'],
};

const mounts = (steps: readonly RootStep[]) =>
  steps.flatMap((s) => (s.op === 'run' ? [s.argv.slice(1).join(' ')] : []));

describe('launchArgv: one argv, no shell', () => {
  it('namespaces: dies with its parent, data-limited, user/PID/network/mount namespaces, the driver with its plan', () => {
    expect(launchArgv(SPEC)).toEqual([
      '/usr/bin/setpriv',
      '--pdeathsig',
      'KILL',
      '--no-new-privs',
      '--',
      '/usr/bin/prlimit',
      '--data=1024',
      '--',
      '/usr/bin/unshare',
      '--user',
      '--map-root-user',
      '--pid',
      '--net',
      '--mount',
      '--fork',
      '--kill-child',
      '--',
      '/usr/bin/node',
      '/gw/src/render/sandbox/enter-root.mjs',
      JSON.stringify(rootPlan(SPEC)),
    ]);
  });

  it('uid: the same namespaces without a user namespace, as root', () => {
    const argv = launchArgv({ ...SPEC, isolation: { mode: 'uid', identity: { uid: 65533, gid: 65533 } } });
    expect(argv.slice(8, 16)).toEqual([
      '/usr/bin/unshare',
      '--pid',
      '--net',
      '--mount',
      '--fork',
      '--kill-child',
      '--',
      '/usr/bin/node',
    ]);
  });

  it.each(['pod', 'trusted'] as const)(
    '%s: the renderer itself, still data-limited and dying with its parent',
    (mode) => {
      expect(launchArgv({ ...SPEC, isolation: { mode } })).toEqual([
        '/usr/bin/setpriv',
        '--pdeathsig',
        'KILL',
        '--no-new-privs',
        '--',
        '/usr/bin/prlimit',
        '--data=1024',
        '--',
        '/usr/bin/node',
        '/cache/renderer.mjs',
      ]);
    },
  );

  it('leaves out what this machine lacks (no setpriv, no prlimit)', () => {
    const programs = { ...SPEC.programs, setpriv: undefined, prlimit: undefined };
    expect(launchArgv({ ...SPEC, programs, isolation: { mode: 'trusted' } })).toEqual([
      '/usr/bin/node',
      '/cache/renderer.mjs',
    ]);
  });

  it('a path with spaces, quotes or a newline stays one argument', () => {
    const odd = "/home/u/it's a\ncheckout";
    const plan = rootPlan({ ...SPEC, view: { ...SPEC.view, readOnly: [{ path: odd, kind: 'dir' }] } });
    const bind = plan.steps.find((s) => s.op === 'run' && s.argv.includes(odd));
    expect(bind).toEqual({
      op: 'run',
      argv: ['/usr/bin/mount', '-o', 'bind,ro,nosuid,nodev', odd, `/tmp/root${odd}`],
    });
  });
});

describe('rootPlan: a root holding only what rendering needs', () => {
  const plan = rootPlan(SPEC);

  it('mounts, in order: the root tmpfs, the system read-only, devices, proc, /tmp, the view parents first', () => {
    expect(mounts(plan.steps)).toEqual([
      '-t tmpfs -o mode=0755,nosuid,nodev,size=16m tmpfs /tmp/root',
      '-o bind,ro,nosuid,nodev /usr /tmp/root/usr',
      '-o bind,ro,nosuid,nodev /etc/passwd /tmp/root/etc/passwd',
      '-o bind,nosuid /dev/null /tmp/root/dev/null',
      '-o bind,nosuid /dev/zero /tmp/root/dev/zero',
      '-o bind,nosuid /dev/urandom /tmp/root/dev/urandom',
      '-o bind,nosuid /dev/random /tmp/root/dev/random',
      '-t proc -o nosuid,nodev,noexec proc /tmp/root/proc',
      '-t tmpfs -o mode=1777,nosuid,nodev,size=512m tmpfs /tmp/root/tmp',
      '-o bind,ro,nosuid,nodev /gw /tmp/root/gw',
      '-o bind,ro,nosuid,nodev /home/u/checkout /tmp/root/home/u/checkout',
      '-t tmpfs -o ro,mode=0555,nosuid,nodev,size=4k tmpfs /tmp/root/home/u/checkout/.git',
      '-o bind,nosuid,nodev /home/u/.cache/groundwork/render/local /tmp/root/home/u/.cache/groundwork/render/local',
      '-o bind,ro,nosuid,nodev /home/u/.cache/groundwork/tools/helm /tmp/root/home/u/.cache/groundwork/tools/helm',
    ]);
  });

  it('binds nothing already there under an identical read-only bind (/gw/node_modules, /usr/lib/...)', () => {
    const binds = mounts(plan.steps).join('\n');
    expect(binds).not.toContain('/gw/node_modules');
    expect(binds).not.toContain('node_modules/x');
  });

  it('recreates merged-usr links instead of binding them', () => {
    expect(plan.steps).toContainEqual({ op: 'link', path: '/tmp/root/bin', target: 'usr/bin' });
  });

  it('ends in chroot and setpriv with no capabilities, and as the render user in uid mode', () => {
    expect(plan.exec).toEqual([
      '/usr/sbin/chroot',
      '/tmp/root',
      '/usr/bin/setpriv',
      '--bounding-set=-all',
      '--inh-caps=-all',
      '--ambient-caps=-all',
      '--no-new-privs',
      '--',
      '/usr/bin/node',
      '/cache/renderer.mjs',
    ]);
    const uid = rootPlan({ ...SPEC, isolation: { mode: 'uid', identity: { uid: 65533, gid: 65534 } } });
    expect(uid.exec.slice(2, 6)).toEqual([
      '/usr/bin/setpriv',
      '--reuid=65533',
      '--regid=65534',
      '--clear-groups',
    ]);
  });

  it('binds a substitute (uid mode) where the original was', () => {
    const uid = rootPlan({
      ...SPEC,
      view: { ...SPEC.view, substitutes: [{ copy: '/tmp/view/tree', at: '/home/u/checkout' }] },
    });
    expect(mounts(uid.steps)).toContain('-o bind,ro,nosuid,nodev /tmp/view/tree /tmp/root/home/u/checkout');
  });
});
