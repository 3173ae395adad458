// How the renderer (the process tree that bundles and runs platform code and runs helm and
// kustomize on repository content) is kept away from every credential: decided purely from what
// this machine allows (`chooseIsolation`), probed once per process (`probeIsolation`).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { GroundworkError } from '../../core/errors.js';

/**
 * - `namespaces`: user, PID, network and mount namespaces (`unshare`), a fresh root holding only
 *   what rendering needs, every capability dropped: the renderer sees no other process, no
 *   network, no file of the trusted side.
 * - `uid`: this process is root but user namespaces are refused: the same fresh root in PID,
 *   network and mount namespaces of root's, and the renderer runs as another, unprivileged user
 *   (`identity`), which cannot read, trace or signal a process of the trusted side.
 * - `pod`: Groundwork runs inside the renderer pod, which is the boundary (no token, no Secret,
 *   no egress): a process group and Node's permission model only.
 * - `trusted`: the user said the repository is trusted (`--trust-repository`) and nothing better
 *   is available: a process group and Node's permission model only. No isolation.
 */
export type Isolation =
  | { readonly mode: 'namespaces' }
  | { readonly mode: 'uid'; readonly identity: RenderIdentity }
  | { readonly mode: 'pod' }
  | { readonly mode: 'trusted' };

/** The user and group the renderer runs as in `uid` mode. */
export interface RenderIdentity {
  readonly uid: number;
  readonly gid: number;
}

/**
 * The renderer's identity in `uid` mode: an id of no account (not `nobody`, which daemons run as;
 * not 65532, the agent image's user).
 */
export const DEFAULT_RENDER_IDENTITY: RenderIdentity = { uid: 65533, gid: 65533 };

/** The absolute paths of the programs a launch needs, as found on `PATH` (missing: undefined). */
export interface SandboxPrograms {
  readonly unshare?: string;
  readonly setpriv?: string;
  readonly prlimit?: string;
  readonly mount?: string;
  readonly chroot?: string;
}

/** What this machine allows, as `probeIsolation` found it. */
export interface IsolationProbes {
  /**
   * Groundwork runs in the renderer pod: `GROUNDWORK_RENDERER_POD=1` (set in that pod's
   * environment) and the probe was asked for by `groundwork renderer` (`ProbeOptions.rendererPod`).
   * Anywhere else the variable is ignored, so it cannot switch a synth or an agent to no isolation.
   */
  readonly inRendererPod: boolean;
  /** Unprivileged user namespaces with PID, network and mount namespaces, and a `proc` mount in them. */
  readonly userNamespaces: boolean;
  /** This process's effective user is root. */
  readonly root: boolean;
  /**
   * As root: PID, network and mount namespaces without a user namespace, and a `proc` mount.
   * Probed only when `userNamespaces` is false (otherwise `namespaces` mode is chosen): false then.
   */
  readonly rootNamespaces: boolean;
  readonly programs: SandboxPrograms;
}

/** What `chooseIsolation` weighs besides the probes. */
export interface IsolationChoiceOptions {
  /** The user said every author of the repository is trusted (`--trust-repository`). @default false */
  readonly trustRepository?: boolean;
  /** @default DEFAULT_RENDER_IDENTITY */
  readonly identity?: RenderIdentity;
}

/** The isolation chosen, or why none fits (the caller refuses to render). */
export type IsolationChoice = { ok: true; isolation: Isolation } | { ok: false; why: string };

/**
 * The strongest isolation the probes allow, in this order: the renderer pod; namespaces; `uid`
 * (root with namespaces of its own); `trusted` only when the user said so; else a refusal that
 * says what is missing. Trusting the repository never weakens what the machine can do. Pure.
 *
 * @example
 * chooseIsolation({ ...probes, userNamespaces: false, root: false }, {}); // { ok: false, why: ... }
 */
export function chooseIsolation(probes: IsolationProbes, opts: IsolationChoiceOptions = {}): IsolationChoice {
  if (probes.inRendererPod) return { ok: true, isolation: { mode: 'pod' } };
  if (probes.userNamespaces) return { ok: true, isolation: { mode: 'namespaces' } };
  if (probes.root && probes.rootNamespaces)
    return { ok: true, isolation: { mode: 'uid', identity: opts.identity ?? DEFAULT_RENDER_IDENTITY } };
  if (opts.trustRepository) return { ok: true, isolation: { mode: 'trusted' } };
  const missing = missingPrograms(probes.programs);
  const tools = missing.length > 0 ? ` (${missing.join(', ')} not found on PATH)` : '';
  return {
    ok: false,
    why: probes.root
      ? `this process runs as root, but neither user namespaces nor PID, network and mount namespaces can be made here${tools}`
      : `unprivileged user namespaces are not allowed here${tools}, and this process is not root`,
  };
}

function missingPrograms(programs: SandboxPrograms): string[] {
  return (['unshare', 'setpriv', 'mount', 'chroot'] as const).filter((p) => programs[p] === undefined);
}

/** The refusal of `chooseIsolation` as the error a render throws. */
export function isolationUnavailable(why: string): GroundworkError {
  return new GroundworkError({
    code: 'RenderIsolationUnavailable',
    subject: 'renderer',
    message: `cannot isolate the renderer from this process's credentials: ${why}; nothing was rendered`,
    fix: 'run where unprivileged user namespaces are allowed (most Linux hosts; util-linux unshare), or as root, or in the renderer pod; or, if you trust every author of this repository, pass --trust-repository (or set GROUNDWORK_TRUST_REPOSITORY=1) to render with process-group isolation only (docs/security.md)',
  });
}

/** One line for logs: which isolation applies and what it does not cover. */
export function describeIsolation(isolation: Isolation): string {
  switch (isolation.mode) {
    case 'namespaces':
      return 'renderer: user, PID, network and mount namespaces, a root of its own, no capabilities';
    case 'uid':
      return `renderer: as uid ${isolation.identity.uid} in PID, network and mount namespaces, a root of its own, no capabilities`;
    case 'pod':
      return 'renderer: in the renderer pod (the pod is the boundary); a process group and the permission model';
    case 'trusted':
      return "renderer: NOT isolated (--trust-repository): a process group and the permission model only; repository content runs with this process's identity";
  }
}

/** What a probe may be told to leave out (tests of the weaker modes); it never adds anything. */
export interface ProbeOptions {
  /** `false`: act as if user namespaces were refused. @default GROUNDWORK_RENDER_USER_NAMESPACES !== '0' */
  readonly userNamespaces?: boolean;
  /** `false`: act as if root could not make namespaces either. @default GROUNDWORK_RENDER_ROOT_NAMESPACES !== '0' */
  readonly rootNamespaces?: boolean;
  /**
   * Only `groundwork renderer` (`renderRequest`) passes `true`: then, and only then,
   * `GROUNDWORK_RENDERER_POD=1` selects the `pod` mode. @default false
   */
  readonly rendererPod?: boolean;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

const probed = new Map<string, Promise<IsolationProbes>>();

/**
 * Probes once per process (and per `opts`): the sandbox programs on `PATH`, and short runs of
 * `unshare ... mount -t proc proc /proc` (a few milliseconds): the unprivileged one always, then
 * the root one as root when the unprivileged one failed. Never throws.
 */
export function probeIsolation(opts: ProbeOptions = {}): Promise<IsolationProbes> {
  const env = opts.env ?? process.env;
  const allowUserNs = opts.userNamespaces ?? env.GROUNDWORK_RENDER_USER_NAMESPACES !== '0';
  const allowRootNs = opts.rootNamespaces ?? env.GROUNDWORK_RENDER_ROOT_NAMESPACES !== '0';
  const inRendererPod = opts.rendererPod === true && env.GROUNDWORK_RENDERER_POD === '1';
  const key = JSON.stringify([allowUserNs, allowRootNs, env.PATH ?? '', inRendererPod]);
  let found = probed.get(key);
  if (!found) {
    found = probe(env, allowUserNs, allowRootNs, inRendererPod);
    probed.set(key, found);
  }
  return found;
}

async function probe(
  env: NodeJS.ProcessEnv,
  allowUserNs: boolean,
  allowRootNs: boolean,
  inRendererPod: boolean,
): Promise<IsolationProbes> {
  const programs: SandboxPrograms = Object.fromEntries(
    (['unshare', 'setpriv', 'prlimit', 'mount', 'chroot'] as const).flatMap((name) => {
      const path = onPath(name, env.PATH ?? '');
      return path ? [[name, path]] : [];
    }),
  );
  const root = process.geteuid?.() === 0;
  const ready = missingPrograms(programs).length === 0;
  const procMount = [programs.mount!, '-t', 'proc', 'proc', '/proc'];
  const userNamespaces =
    ready && allowUserNs
      ? await succeeds([programs.unshare!, '--user', '--map-root-user', ...NAMESPACES, '--', ...procMount])
      : false;
  // Root's own namespaces decide only where user namespaces are refused (`chooseIsolation`): a
  // root process where they are allowed (a CI job, a container) spawns one probe, not two.
  const rootNamespaces =
    !userNamespaces && ready && root && allowRootNs
      ? await succeeds([programs.unshare!, ...NAMESPACES, '--', ...procMount])
      : false;
  return {
    inRendererPod,
    userNamespaces,
    root,
    rootNamespaces,
    programs,
  };
}

/** The namespaces besides the user namespace, and the fork that makes the command PID 1. */
export const NAMESPACES = ['--pid', '--net', '--mount', '--fork', '--kill-child'] as const;

/** The first executable `name` in the absolute directories of `path` (a `PATH` value). */
export function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter).filter(isAbsolute)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether `argv` runs and exits 0 within 5 s (false when the program is missing or the kernel refuses). */
function succeeds(argv: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', timeout: 5000 });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}
