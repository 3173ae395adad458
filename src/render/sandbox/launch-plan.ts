// The one builder of the renderer's command line: the namespaces, the new root it runs in, and the
// identity it runs as, as argv arrays (never a shell string).
import { join } from 'node:path';
import { NAMESPACES, type Isolation, type SandboxPrograms } from './isolation.js';

/** One step the driver (`enter-root.mjs`) takes inside the new mount namespace before the renderer starts. */
export type RootStep =
  | { readonly op: 'dir'; readonly path: string }
  | { readonly op: 'file'; readonly path: string }
  | { readonly op: 'link'; readonly path: string; readonly target: string }
  | { readonly op: 'run'; readonly argv: readonly string[] };

/** What the driver does: the steps in order, then the renderer's command (in the new root). */
export interface DriverPlan {
  readonly steps: readonly RootStep[];
  readonly exec: readonly string[];
}

/** A path of the machine the renderer needs (programs, libraries, `/etc` files), as found here. */
export type SystemEntry =
  | { readonly path: string; readonly kind: 'dir' | 'file' }
  | { readonly path: string; readonly kind: 'link'; readonly target: string };

/** A path of the trusted side the renderer reads: a directory or a file, by its real path. */
export interface ViewEntry {
  readonly path: string;
  readonly kind: 'dir' | 'file';
}

/** What the renderer sees of the trusted side's files, each at its own path. */
export interface RenderView {
  /** Bound read-only: Node, Groundwork, the checkout, libraries, tools, chart archives, the bundle. */
  readonly readOnly: readonly ViewEntry[];
  /** Bound read-write: the trust domain's cache directories. */
  readonly writable: readonly string[];
  /** Covered by an empty read-only tmpfs: a checkout's `.git` (a clone's config may hold a token). */
  readonly hidden: readonly string[];
  /** A copy bound read-only where the original is (`uid` mode: a checkout its user could not read). */
  readonly substitutes: readonly { readonly copy: string; readonly at: string }[];
}

/** Everything `launchArgv` needs to start the renderer under an isolation. */
export interface LaunchSpec {
  readonly isolation: Isolation;
  readonly programs: SandboxPrograms;
  /** RLIMIT_DATA of every process of the renderer tree (`prlimit --data`), in bytes. */
  readonly dataLimitBytes: number;
  /** Node's real path, which runs the driver. */
  readonly node: string;
  /** The driver script (`enter-root.mjs`). */
  readonly driver: string;
  /** An empty directory of the trusted side the new root is mounted on (inside the namespace only). */
  readonly root: string;
  readonly system: readonly SystemEntry[];
  readonly view: RenderView;
  /** The renderer's own command: `[node, ...flags, bundle]`. */
  readonly renderer: readonly string[];
}

/** Every capability gone for good, and no way to gain one back through a setuid program. */
const NO_PRIVILEGES = ['--bounding-set=-all', '--inh-caps=-all', '--ambient-caps=-all', '--no-new-privs'];

/**
 * The full command line of a renderer under `spec.isolation`. Outermost, where the programs exist:
 * `setpriv --pdeathsig KILL --no-new-privs` (the tree dies with the trusted side) and `prlimit
 * --data` (off-heap memory bounded per process). Then, for `namespaces`, `unshare --user
 * --map-root-user` with PID, network and mount namespaces; for `uid`, the same namespaces without
 * the user namespace; both start the driver with `rootPlan`, which ends in `chroot` and `setpriv`.
 * `pod` and `trusted` start the renderer itself. Pure.
 *
 * @example
 * launchArgv({ ...spec, isolation: { mode: 'trusted' } });
 * // ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--no-new-privs', '--', '/usr/bin/prlimit', '--data=…', '--', node, bundle]
 */
export function launchArgv(spec: LaunchSpec): string[] {
  const { programs, isolation } = spec;
  const driver = () => [spec.node, spec.driver, JSON.stringify(rootPlan(spec))];
  const inner =
    isolation.mode === 'namespaces'
      ? [programs.unshare!, '--user', '--map-root-user', ...NAMESPACES, '--', ...driver()]
      : isolation.mode === 'uid'
        ? [programs.unshare!, ...NAMESPACES, '--', ...driver()]
        : [...spec.renderer];
  const limited = programs.prlimit
    ? [programs.prlimit, `--data=${Math.floor(spec.dataLimitBytes)}`, '--', ...inner]
    : inner;
  return programs.setpriv
    ? [programs.setpriv, '--pdeathsig', 'KILL', '--no-new-privs', '--', ...limited]
    : limited;
}

/**
 * What the driver does in the new mount namespace: a tmpfs on `spec.root`; the system's directories
 * and `/etc` files bound read-only (links recreated); `/dev/null`, `/dev/zero`, `/dev/urandom`,
 * `/dev/random`; a `proc` of the new PID namespace; a tmpfs `/tmp`; then the view, each at its own
 * path, parents before children (a read-only path under an identical read-only bind needs no bind
 * of its own); then `chroot` into it and `setpriv` with no capabilities (in `uid` mode as the
 * renderer's user). Nothing else of the machine is there: no home, `/root`, `/run`, `/var`. Pure.
 */
export function rootPlan(spec: LaunchSpec): DriverPlan {
  const R = spec.root;
  const mount = spec.programs.mount!;
  const at = (path: string) => join(R, path);
  const bind = (source: string, target: string, kind: 'dir' | 'file', options: string): RootStep[] => [
    kind === 'dir' ? { op: 'dir', path: at(target) } : { op: 'file', path: at(target) },
    { op: 'run', argv: [mount, '-o', options, source, at(target)] },
  ];
  const readOnly = 'bind,ro,nosuid,nodev';
  const steps: RootStep[] = [
    { op: 'run', argv: [mount, '-t', 'tmpfs', '-o', 'mode=0755,nosuid,nodev,size=16m', 'tmpfs', R] },
  ];
  const bound: string[] = [];
  for (const entry of [...spec.system].sort(byPath)) {
    if (entry.kind === 'link') steps.push({ op: 'link', path: at(entry.path), target: entry.target });
    else {
      steps.push(...bind(entry.path, entry.path, entry.kind, readOnly));
      if (entry.kind === 'dir') bound.push(entry.path);
    }
  }
  for (const dev of ['null', 'zero', 'urandom', 'random'])
    steps.push(...bind(`/dev/${dev}`, `/dev/${dev}`, 'file', 'bind,nosuid'));
  steps.push({ op: 'link', path: at('/dev/fd'), target: '/proc/self/fd' });
  steps.push({ op: 'dir', path: at('/proc') });
  steps.push({ op: 'run', argv: [mount, '-t', 'proc', '-o', 'nosuid,nodev,noexec', 'proc', at('/proc')] });
  steps.push({ op: 'dir', path: at('/tmp') });
  steps.push({
    op: 'run',
    argv: [mount, '-t', 'tmpfs', '-o', 'mode=1777,nosuid,nodev,size=512m', 'tmpfs', at('/tmp')],
  });
  type Placed = { path: string; step: () => RootStep[] };
  const placed: Placed[] = [
    ...spec.view.readOnly.map((e) => ({
      path: e.path,
      step: () => (covered(bound, e.path) ? [] : bind(e.path, e.path, e.kind, readOnly)),
    })),
    ...spec.view.substitutes.map((s) => ({
      path: s.at,
      step: () => bind(s.copy, s.at, 'dir', readOnly),
    })),
    ...spec.view.writable.map((path) => ({
      path,
      step: () => bind(path, path, 'dir', 'bind,nosuid,nodev'),
    })),
    ...spec.view.hidden.map((path) => ({
      path,
      step: (): RootStep[] => [
        { op: 'dir', path: at(path) },
        {
          op: 'run',
          argv: [mount, '-t', 'tmpfs', '-o', 'ro,mode=0555,nosuid,nodev,size=4k', 'tmpfs', at(path)],
        },
      ],
    })),
  ];
  for (const p of placed.sort(byPath)) {
    steps.push(...p.step());
    if (spec.view.readOnly.some((e) => e.path === p.path && e.kind === 'dir') && !covered(bound, p.path))
      bound.push(p.path);
  }
  const identity =
    spec.isolation.mode === 'uid'
      ? [`--reuid=${spec.isolation.identity.uid}`, `--regid=${spec.isolation.identity.gid}`, '--clear-groups']
      : [];
  return {
    steps,
    exec: [
      spec.programs.chroot!,
      R,
      spec.programs.setpriv!,
      ...identity,
      ...NO_PRIVILEGES,
      '--',
      ...spec.renderer,
    ],
  };
}

/** Whether `path` is at or under a directory already bound read-only at its own path. */
function covered(bound: readonly string[], path: string): boolean {
  return bound.some((dir) => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`));
}

/** Parents before children: by path depth, then by path. */
function byPath(a: { path: string }, b: { path: string }): number {
  const depth = (p: string) => p.split('/').length;
  return depth(a.path) - depth(b.path) || a.path.localeCompare(b.path);
}
