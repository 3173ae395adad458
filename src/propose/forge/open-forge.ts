import { GroundworkError } from '../../core/errors.js';
import { urlProblem, type OutboundPolicy } from '../../core/outbound-url.js';
import { FORGES, forgeRepo, type Forge, type ForgeRepo } from '../../report/notifications/forge.js';
import type { RetryPolicy } from '../../report/notifications/retry.js';
import { giteaForge } from './gitea.js';
import { githubForge } from './github.js';
import { gitlabForge } from './gitlab.js';
import type { PullRequestForge } from './pull-request-forge.js';

/** Where the pull requests go and with which token. */
export interface ForgeOptions {
  /** The repository's clone URL (the checkout's `origin`, or a flag): the forge and path are read from it. */
  readonly repoUrl: string;
  /** Required for hosts other than github.com and gitlab.com. */
  readonly forge?: Forge;
  /** The API root (`--forge-api`); @default derived from the repository URL's origin, as for commit statuses */
  readonly apiUrl?: string;
  /** From a flag or the environment, never from the repository. */
  readonly token: string;
  /** @default `outboundPolicy()` */
  readonly policy?: OutboundPolicy;
  readonly retry?: RetryPolicy;
  readonly sleep?: (ms: number) => Promise<unknown>;
  /** Per attempt. @default 30_000 */
  readonly timeoutMs?: number;
}

/**
 * The `PullRequestForge` of a repository: its forge and API root as commit statuses find them
 * (`forgeRepo`: `UnknownForge` when the host is not github.com or gitlab.com and `forge` is not
 * given), the API root checked by shape now (`urlProblem`: `UrlNotAllowed`, the URL never quoted)
 * and by address at each connection (`checkedFetch`). An empty token is `MissingFlag`.
 */
export function pullRequestForge(opts: ForgeOptions): { repo: ForgeRepo; client: PullRequestForge } {
  if (opts.forge !== undefined && !FORGES.includes(opts.forge))
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--forge',
      message: `must be one of ${FORGES.join(', ')}`,
      fix: 'Forgejo speaks gitea',
    });
  if (opts.token === '')
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: 'forge token',
      message: 'no token to open pull requests with',
      fix: 'set GROUNDWORK_FORGE_TOKEN, or name another variable with --token-env NAME',
    });
  const repo = forgeRepo(opts.repoUrl, {
    ...(opts.forge ? { forge: opts.forge } : {}),
    ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
  });
  const problem = urlProblem(repo.apiUrl, opts.policy);
  if (problem)
    throw new GroundworkError({
      code: 'UrlNotAllowed',
      subject: '--forge-api',
      message: `the forge's API URL ${problem}`,
      fix: "give the forge's own https:// API root without credentials",
    });
  const call = {
    token: opts.token,
    ...(opts.policy ? { policy: opts.policy } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  };
  const make = { github: githubForge, gitlab: gitlabForge, gitea: giteaForge }[repo.forge];
  return { repo, client: make(repo, call) };
}
