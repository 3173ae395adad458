import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { GroundworkError } from '../core/errors.js';

/** The service-account token an in-cluster client reads (as client-go and client-node do). */
const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** Where a client's configuration comes from, in kubectl's order. */
type KubeconfigSource = { kind: 'file'; paths: string[] } | { kind: 'in-cluster' };

/**
 * Decides where the configuration comes from without reading it: `--kubeconfig`, then
 * `$KUBECONFIG` (a list), then `~/.kube/config`, then the in-cluster service account. Throws
 * `KubeconfigNotFound` naming what was tried, instead of falling back to `localhost:8080` as the
 * client library would.
 */
export function kubeconfigSource(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): KubeconfigSource {
  if (explicit) {
    if (!exists(explicit)) {
      throw new GroundworkError({
        code: 'KubeconfigNotFound',
        subject: explicit,
        message: 'kubeconfig file not found',
        fix: 'pass an existing file with --kubeconfig',
      });
    }
    return { kind: 'file', paths: [explicit] };
  }
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  const present = listed.filter(exists);
  if (present.length > 0) return { kind: 'file', paths: present };
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  if (listed.length === 0 && exists(home)) return { kind: 'file', paths: [home] };
  if (env.KUBERNETES_SERVICE_HOST && exists(IN_CLUSTER_TOKEN)) return { kind: 'in-cluster' };
  const tried = [
    listed.length ? `$KUBECONFIG=${listed.join(delimiter)} (missing)` : '$KUBECONFIG (unset)',
    ...(listed.length ? [] : [`${home} (missing)`]),
    env.KUBERNETES_SERVICE_HOST
      ? `in-cluster service account (${IN_CLUSTER_TOKEN} missing)`
      : 'in-cluster service account (not in a pod)',
  ];
  throw new GroundworkError({
    code: 'KubeconfigNotFound',
    message: `no kubeconfig found (tried ${tried.join(', ')})`,
    fix: 'pass --kubeconfig <file>, set KUBECONFIG, or start a local cluster with `groundwork cluster up` and use the path it prints',
  });
}

/** Checks a `--context` against the contexts a kubeconfig defines. */
export function checkContext(context: string, available: readonly string[], where: string): void {
  if (available.includes(context)) return;
  throw new GroundworkError({
    code: 'UnknownContext',
    subject: `context "${context}"`,
    message: `not found in kubeconfig ${where}; available: ${available.length ? available.join(', ') : '(none)'}`,
    fix: 'pass one of the available contexts with --context, or none for the current one',
  });
}

/**
 * `KubeconfigInvalid` for the kubeconfig file(s) `subject`: `message` says what is wrong, never
 * quoting the file (a kubeconfig holds credentials).
 */
export function kubeconfigInvalid(subject: string, message: string): GroundworkError {
  return new GroundworkError({
    code: 'KubeconfigInvalid',
    subject,
    message,
    fix: 'check the file (`kubectl config view --kubeconfig <file>`), or pass another with --kubeconfig',
  });
}
