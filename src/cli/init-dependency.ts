import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import semver from 'semver';
import { GroundworkError } from '../core/errors.js';

/** Where the scaffold's `groundwork-gitops` dependency comes from (`init --groundwork-version`). */
export type DependencySource =
  /** A registry version or range, written as given (`0.1.0`, `^0.1.0`). */
  | { kind: 'registry'; spec: string }
  /** A git URL npm understands, written as given (`git+https://host/groundwork.git#v0.1.0`). */
  | { kind: 'git'; spec: string }
  /** A packed tarball, copied into the new repository as `vendor/<file>` and named `file:vendor/<file>`. */
  | { kind: 'tarball'; from: string; vendored: string; spec: string }
  /** A Groundwork checkout (a directory), named by its absolute path `file:/abs/path`. */
  | { kind: 'directory'; spec: string };

const GIT_URL = /^(git\+(https?|ssh|file):\/\/|git:\/\/|ssh:\/\/|(github|gitlab|bitbucket):)\S+$/;
const TARBALL = /\.(tgz|tar\.gz)$/;

/** Control characters (a newline included) have no place in a dependency spec or a path. */
const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Decides the dependency `init` writes for `groundwork-gitops`. Pure apart from `stat` of a path.
 *
 * - no `spec`: the running Groundwork's own package directory, `file:<its absolute path>` (a git
 *   checkout or an installed package): the package is not on the npm registry yet, so
 *   `^<version>` would fail with E404 (`init` says so; a `.tgz` travels with the repository);
 * - a semver version or range: as given;
 * - a git URL (`git+https://`, `git+ssh://`, `git://`, `github:owner/repo`, with `#ref`): as given;
 * - a `.tgz`/`.tar.gz` file (relative to `cwd`): copied into the new repository as
 *   `vendor/<file>`, so the dependency `file:vendor/<file>` survives moving or cloning the
 *   repository (the PR workflow runs in a clone) — the caller copies it;
 * - a directory (relative to `cwd`): `file:<absolute path>` (a checkout on this machine).
 *
 * The value is only ever written into package.json as data; nothing is run. Anything else
 * (shell metacharacters, a missing path) is refused with `InvalidGroundworkVersion`.
 */
export function groundworkDependency(opts: {
  spec?: string;
  cwd: string;
  /** Groundwork's own package root and version, and whether it is a git checkout. */
  self: { root: string; version: string; gitCheckout: boolean };
}): DependencySource {
  const { spec, cwd, self } = opts;
  if (spec === undefined) return { kind: 'directory', spec: `file:${self.root}` };
  if (semver.valid(spec) || (/^[\d^~<>=*xX. |-]+$/.test(spec) && semver.validRange(spec)))
    return { kind: 'registry', spec };
  if (GIT_URL.test(spec) && !hasControl(spec)) return { kind: 'git', spec };
  const path = isAbsolute(spec) ? spec : resolve(cwd, spec);
  if (spec.trim() !== '' && !hasControl(spec) && existsSync(path)) {
    const stat = statSync(path);
    if (stat.isDirectory()) return { kind: 'directory', spec: `file:${path}` };
    if (stat.isFile() && TARBALL.test(path)) {
      const vendored = `vendor/${basename(path).replace(/[^A-Za-z0-9._-]/g, '-')}`;
      return { kind: 'tarball', from: path, vendored, spec: `file:${vendored}` };
    }
  }
  throw new GroundworkError({
    code: 'InvalidGroundworkVersion',
    subject: '--groundwork-version',
    message: 'not a version or range, a git URL, an existing .tgz file or a Groundwork directory',
    fix: 'pass e.g. 0.1.0, git+https://host/groundwork.git#main, ./groundwork-gitops-0.1.0.tgz or a checkout path',
  });
}

/**
 * What `init` says about the dependency it wrote when none was asked for: the package is not
 * published, so the running Groundwork's own directory is named, which resolves on this machine only.
 */
export function unpublishedDependencyNote(dep: DependencySource): string {
  return `groundwork-gitops is not published on the npm registry yet, so the dependency is this Groundwork's own package (${dep.spec}), which resolves on this machine only (.npmrc install-links=true makes npm install copy it, as synth reads no link out of the repository); for CI or another machine, run init with --groundwork-version <groundwork-gitops-<version>.tgz> (npm pack; copied into vendor/) or a git URL`;
}
