import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { isWithin } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';

// A fleet file (the repository's fleet.yaml, or one --fleet names) may name a kubeconfig per
// cluster. Loading a kubeconfig can run a command: an `exec` credential plugin, or an
// `auth-provider` with a `cmd-path` (gcp, azure). kubectl runs them for whatever file it is given;
// Groundwork runs them only for kubeconfigs the operator names (`--kubeconfig`, `KUBECONFIG`,
// `~/.kube/config`), as Argo CD and Rancher Fleet take cluster credentials from the operator
// (Secrets), never from the repository they deploy.

/** The operator's own kubeconfig files: `--kubeconfig`, every `KUBECONFIG` entry, `~/.kube/config`. */
export function operatorKubeconfigs(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  return [...(explicit ? [explicit] : []), ...listed, home].map((p) => resolve(p));
}

/** Whether `path` is (by real path) one of the operator's own kubeconfig files. */
export function isOperatorKubeconfig(
  path: string,
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const real = realOrSelf(path);
  return operatorKubeconfigs(explicit, env).some((p) => realOrSelf(p) === real);
}

/** Where a fleet file's kubeconfig path came from, for the checks and their messages. */
export interface FleetKubeconfigOrigin {
  /** The fleet file, as the user knows it (`fleet.yaml`, or the `--fleet` path). */
  fleetFile: string;
  cluster: string;
  /** The platform repository: no kubeconfig is read from inside it. */
  repoDir: string;
  /** The fleet file is the repository's own (not `--fleet`): the path must be in the operator's kubeconfig directories. */
  fromRepository: boolean;
  /** `--kubeconfig`. */
  explicit?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The absolute path of a kubeconfig a fleet file names (`~/` is the home directory, a relative path
 * is from the working directory), or KubeconfigRefused: inside the repository (by lexical or real
 * path), or, for the repository's own fleet.yaml, outside the operator's kubeconfig directories
 * (`~/.kube` and the directories of `KUBECONFIG` and `--kubeconfig`). Reads no file.
 */
export function confineFleetKubeconfig(path: string, origin: FleetKubeconfigOrigin): string {
  const env = origin.env ?? process.env;
  const home = env.HOME ?? homedir();
  const abs = path.startsWith('~/') ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(path);
  const refuse = (message: string, fix: string) =>
    new GroundworkError({
      code: 'KubeconfigRefused',
      subject: `${origin.fleetFile}: cluster ${origin.cluster}`,
      message,
      fix,
    });
  const repo = realOrSelf(origin.repoDir);
  if (isWithin(resolve(origin.repoDir), abs) || isWithin(repo, realOrSelf(abs)))
    throw refuse(
      `its kubeconfig ${path} is inside the repository: credentials do not belong in git, and a kubeconfig from the repository would choose where a token is sent`,
      'keep the kubeconfig outside the repository (e.g. ~/.kube/<cluster>) and name that path, or name only the context and use your own kubeconfig',
    );
  if (origin.fromRepository) {
    const dirs = [join(home, '.kube'), ...operatorKubeconfigs(origin.explicit, env).map((p) => dirname(p))];
    const real = realOrSelf(abs);
    if (!dirs.some((d) => isWithin(resolve(d), abs) && isWithin(realOrSelf(d), real)))
      throw refuse(
        `its kubeconfig ${path} is outside your kubeconfig directories (~/.kube, and those of KUBECONFIG and --kubeconfig)`,
        'put the file under ~/.kube or list it in KUBECONFIG, or name the fleet with your own --fleet file',
      );
  }
  return abs;
}

/**
 * Refuses, before any credential is fetched, a kubeconfig whose selected user would run a command
 * to get one: an `exec` credential plugin or an `auth-provider` (gcp and azure run `cmd-path`; oidc
 * refreshes against a URL of the file). For a kubeconfig that repository content named (`namedBy`)
 * and the operator does not name themselves. KubeconfigRefused names the file, the cluster's context
 * and the user, never the command or any value of the file.
 */
export function refuseCredentialPlugins(kc: KubeConfig, where: { file: string; namedBy: string }): void {
  const context = kc.getContextObject(kc.getCurrentContext());
  const user = kc.getCurrentUser();
  if (!user || (!user.exec && !user.authProvider)) return;
  const plugin = user.exec ? 'an exec credential plugin' : 'an auth-provider';
  throw new GroundworkError({
    code: 'KubeconfigRefused',
    subject: where.file,
    message: `user ${JSON.stringify(user.name)} of context ${JSON.stringify(context?.name ?? '')} runs ${plugin}, and ${where.namedBy} named this kubeconfig: Groundwork runs credential plugins only from kubeconfigs you name yourself (nothing was run)`,
    fix: `put the credentials in your own kubeconfig and name only its context in ${where.namedBy}, or list ${where.file} in KUBECONFIG (or pass --kubeconfig ${where.file})`,
  });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
