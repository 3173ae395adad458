import type { ForgeRepo } from '../../report/notifications/forge.js';
import { forgeCall, type ForgeCallOptions } from './forge-call.js';
import type { PullRequestForge } from './pull-request-forge.js';
import { githubLikeEdits, pullOf, type ForgeCaller } from './github-like.js';
import { githubLikePull, listOf } from './pull-request-schema.js';

/** Pages of open pull requests read to find one (20 each): past them a branch's is not found. */
const MAX_PAGES = 10;

/**
 * Gitea's and Forgejo's pull requests (API v1, their swagger):
 * - find: `GET /repos/{owner}/{repo}/pulls?state=open&page=N&limit=20` (no head filter in every
 *   version), the one whose `head.ref` is the branch and whose head repository is this one;
 * - open: `POST /repos/{owner}/{repo}/pulls` with `head`, `base`, `title`, `body` (CreatePullRequestOption);
 * - update and close: `PATCH /repos/{owner}/{repo}/pulls/{index}` with `title`, `body` / `state: closed`
 *   (EditPullRequestOption);
 * - the closing comment: `POST /repos/{owner}/{repo}/issues/{index}/comments` with `body`.
 * The token goes as `Authorization: token`.
 */
export function giteaForge(repo: ForgeRepo, opts: ForgeCallOptions): PullRequestForge {
  const [owner = '', name = ''] = repo.path.split('/');
  const base = `${repo.apiUrl}/repos/${enc(owner)}/${enc(name)}`;
  const headers = {
    Accept: 'application/json',
    Authorization: `token ${opts.token}`,
    'User-Agent': 'groundwork-propose',
  };
  const call: ForgeCaller = (req, schema) =>
    forgeCall({ ...req, headers }, schema, { maxBytes: 4 * 1024 * 1024, ...opts });
  return {
    forge: 'gitea',
    async find(branch) {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const query = new URLSearchParams({ state: 'open', page: String(page), limit: '20' });
        const pulls = await call(
          { method: 'GET', url: `${base}/pulls?${query}`, what: `find the pull request of ${branch}` },
          listOf(githubLikePull),
        );
        const mine = pulls.find(
          (p) => p.head.ref === branch && p.head.repo?.full_name.toLowerCase() === repo.path.toLowerCase(),
        );
        if (mine) return pullOf(mine);
        if (pulls.length < 20) return undefined;
      }
      return undefined;
    },
    async open(pr) {
      return pullOf(
        await call(
          {
            method: 'POST',
            url: `${base}/pulls`,
            body: { head: pr.branch, base: pr.base, title: pr.title, body: pr.body },
            what: `open a pull request for ${pr.branch}`,
          },
          githubLikePull,
        ),
      );
    },
    ...githubLikeEdits(base, call),
  };
}

const enc = encodeURIComponent;
