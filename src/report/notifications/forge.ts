import { GroundworkError } from '../../core/errors.js';
import { parseRepoUrl } from '../../source/repo-url.js';
import type { HttpRequest } from './http-request.js';
import type { CommitStatus } from './types.js';

/** The forges Groundwork sets commit statuses on (Forgejo speaks Gitea's API). */
export const FORGES = ['github', 'gitlab', 'gitea'] as const;
export type Forge = (typeof FORGES)[number];

/** Where a repository's statuses go: the forge, its API root (no trailing slash) and the repository's path. */
export interface ForgeRepo {
  readonly forge: Forge;
  readonly apiUrl: string;
  /** `owner/name` (GitLab: the project's full path, groups included). */
  readonly path: string;
}

/**
 * An SSH clone URL (`git@host:owner/name.git`, `ssh://git@host:2222/owner/name.git`) as the forge's
 * HTTPS address of the same repository (`https://host/owner/name.git`: its web and API port, not
 * the SSH one); any other URL as it is.
 */
function httpsForm(repoUrl: string): string {
  let parsed: ReturnType<typeof parseRepoUrl>;
  try {
    parsed = parseRepoUrl(repoUrl);
  } catch {
    return repoUrl;
  }
  if (parsed.kind !== 'ssh') return repoUrl;
  const host = parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host;
  return `https://${host}/${parsed.path.replace(/^\/+/, '')}`;
}

/**
 * The forge repository of a git URL (an SSH URL read as its HTTPS form): github.com and gitlab.com are known, any other host needs
 * `forge` (the API root is then derived from the URL's origin: `/api/v3` for GitHub Enterprise,
 * `/api/v4` for GitLab, `/api/v1` for Gitea and Forgejo) unless `apiUrl` is given. The host the
 * token goes to comes from the agent's own settings, never from the repository's content.
 * Throws `UnknownForge` (naming the host, never credentials) when the forge cannot be told.
 */
export function forgeRepo(repoUrl: string, opts: { forge?: Forge; apiUrl?: string } = {}): ForgeRepo {
  let url: URL;
  try {
    url = new URL(httpsForm(repoUrl));
  } catch {
    throw new GroundworkError({
      code: 'UnknownForge',
      message: 'the repository URL is not a URL',
      fix: 'use https://<host>/<owner>/<name>.git',
    });
  }
  const host = url.host.toLowerCase();
  const forge =
    opts.forge ?? (host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : undefined);
  const path = decodeURIComponent(url.pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
  if (!forge)
    throw new GroundworkError({
      code: 'UnknownForge',
      subject: host,
      message: 'cannot tell which forge serves this repository',
      fix: `name it: --commit-status-forge ${FORGES.join('|')}`,
    });
  if (!/^[^/]+(\/[^/]+)+$/.test(path) || (forge !== 'gitlab' && path.split('/').length !== 2))
    throw new GroundworkError({
      code: 'UnknownForge',
      subject: host,
      message: `the repository path is not ${forge === 'gitlab' ? 'group/…/project' : 'owner/name'}`,
      fix: 'use the repository URL the forge shows for cloning over HTTPS',
    });
  const root =
    opts.apiUrl ??
    (host === 'github.com'
      ? 'https://api.github.com'
      : `${url.origin}${forge === 'github' ? '/api/v3' : forge === 'gitlab' ? '/api/v4' : '/api/v1'}`);
  return { forge, apiUrl: root.replace(/\/+$/, ''), path };
}

/**
 * The request that sets `status` on its commit:
 * - GitHub: `POST /repos/{owner}/{repo}/statuses/{sha}`, states pending, success, failure
 *   (docs.github.com/en/rest/commits/statuses, API version 2022-11-28);
 * - GitLab: `POST /projects/{id}/statuses/{sha}` with `name` as the context, states pending,
 *   success, failed (docs.gitlab.com/api/commits/#set-the-pipeline-status-of-a-commit);
 * - Gitea/Forgejo: `POST /repos/{owner}/{repo}/statuses/{sha}` under /api/v1, states pending,
 *   success, failure (Gitea's swagger, CreateStatusOption).
 * The token is a header; nothing else of it is kept.
 */
export function statusRequest(repo: ForgeRepo, status: CommitStatus, token: string): HttpRequest {
  const target = status.targetUrl ? { target_url: status.targetUrl } : {};
  const json = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': 'groundwork-agent',
  };
  const [owner, name] = repo.path.split('/');
  switch (repo.forge) {
    case 'github':
      return {
        method: 'POST',
        url: `${repo.apiUrl}/repos/${enc(owner!)}/${enc(name!)}/statuses/${status.sha}`,
        headers: {
          ...json,
          Accept: 'application/vnd.github+json',
          Authorization: `Bearer ${token}`,
          'X-GitHub-Api-Version': '2022-11-28',
        },
        body: JSON.stringify({
          state: status.state,
          description: status.description,
          context: status.context,
          ...target,
        }),
      };
    case 'gitlab':
      return {
        method: 'POST',
        url: `${repo.apiUrl}/projects/${enc(repo.path)}/statuses/${status.sha}`,
        headers: { ...json, 'PRIVATE-TOKEN': token },
        body: JSON.stringify({
          state: status.state === 'failure' ? 'failed' : status.state,
          name: status.context,
          description: status.description,
          ...target,
        }),
      };
    case 'gitea':
      return {
        method: 'POST',
        url: `${repo.apiUrl}/repos/${enc(owner!)}/${enc(name!)}/statuses/${status.sha}`,
        headers: { ...json, Authorization: `token ${token}` },
        body: JSON.stringify({
          state: status.state,
          description: status.description,
          context: status.context,
          ...target,
        }),
      };
  }
}

const enc = encodeURIComponent;
