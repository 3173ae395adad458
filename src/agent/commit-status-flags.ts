import type { CommitStatusOptions } from './notifications.js';
import { GroundworkError } from '../core/errors.js';
import { FORGES, type Forge } from '../report/notifications/forge.js';
import { urlProblem } from '../project/notifications-config.js';

/** The `groundwork agent` flags of commit statuses. */
export interface CommitStatusFlags {
  commitStatusSecret?: string;
  commitStatusForge?: string;
  commitStatusApi?: string;
  dashboardUrl?: string;
}

/**
 * The commit status options the flags ask for, checked: a forge from `FORGES`, URLs http(s)
 * without credentials (never quoted). Undefined without `--commit-status-secret`; the other
 * flags alone are refused. Throws `InvalidFlag`.
 */
export function commitStatusOf(flags: CommitStatusFlags): CommitStatusOptions | undefined {
  const refuse = (flag: string, message: string, fix: string) =>
    new GroundworkError({ code: 'InvalidFlag', subject: flag, message, fix });
  if (!flags.commitStatusSecret) {
    const stray = (['commitStatusForge', 'commitStatusApi', 'dashboardUrl'] as const).find((k) => flags[k]);
    if (stray)
      throw refuse(
        `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
        'has no effect without --commit-status-secret',
        'name the Secret holding the forge token: --commit-status-secret <name>',
      );
    return undefined;
  }
  const forge = flags.commitStatusForge;
  if (forge !== undefined && !(FORGES as readonly string[]).includes(forge))
    throw refuse('--commit-status-forge', `must be one of ${FORGES.join(', ')}`, 'Forgejo speaks gitea');
  for (const [flag, value] of [
    ['--commit-status-api', flags.commitStatusApi],
    ['--dashboard-url', flags.dashboardUrl],
  ] as const) {
    const problem = value !== undefined ? urlProblem(value) : undefined;
    if (problem)
      throw refuse(flag, `the URL ${problem}`, 'pass an https:// URL without user name or password');
  }
  return {
    secret: flags.commitStatusSecret,
    ...(forge ? { forge: forge as Forge } : {}),
    ...(flags.commitStatusApi ? { apiUrl: flags.commitStatusApi } : {}),
    ...(flags.dashboardUrl ? { dashboardUrl: flags.dashboardUrl } : {}),
  };
}
