import type { ForgeRepo } from '../../report/notifications/forge.js';
import { forgeCall, type ForgeCallOptions } from './forge-call.js';
import type { PullRequestForge } from './pull-request-forge.js';
import { githubLikeEdits, pullOf, type ForgeCaller } from './github-like.js';
import { githubLikePull, listOf } from './pull-request-schema.js';

/**
 * GitHub's pull requests, REST API version 2022-11-28:
 * - find: `GET /repos/{owner}/{repo}/pulls?state=open&head={owner}:{branch}`
 *   (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests);
 * - open: `POST /repos/{owner}/{repo}/pulls` with `title`, `head`, `base`, `body`, `maintainer_can_modify`
 *   (https://docs.github.com/en/rest/pulls/pulls#create-a-pull-request);
 * - update and close: `PATCH /repos/{owner}/{repo}/pulls/{pull_number}` with `title`, `body` / `state: closed`
 *   (https://docs.github.com/en/rest/pulls/pulls#update-a-pull-request);
 * - the closing comment: `POST /repos/{owner}/{repo}/issues/{issue_number}/comments` with `body`
 *   (https://docs.github.com/en/rest/issues/comments#create-an-issue-comment).
 * The token goes as `Authorization: Bearer`.
 */
export function githubForge(repo: ForgeRepo, opts: ForgeCallOptions): PullRequestForge {
  const [owner = '', name = ''] = repo.path.split('/');
  const base = `${repo.apiUrl}/repos/${enc(owner)}/${enc(name)}`;
  const headers = {
    Accept: 'application/vnd.github+json',
    Authorization: `Bearer ${opts.token}`,
    'X-GitHub-Api-Version': '2022-11-28',
    'User-Agent': 'groundwork-propose',
  };
  const call: ForgeCaller = (req, schema) => forgeCall({ ...req, headers }, schema, opts);
  return {
    forge: 'github',
    async find(branch) {
      const query = new URLSearchParams({ state: 'open', head: `${owner}:${branch}`, per_page: '10' });
      const pulls = await call(
        { method: 'GET', url: `${base}/pulls?${query}`, what: `find the pull request of ${branch}` },
        listOf(githubLikePull),
      );
      const mine = pulls.find(
        (p) => p.head.ref === branch && p.head.repo?.full_name.toLowerCase() === repo.path.toLowerCase(),
      );
      return mine && pullOf(mine);
    },
    async open(pr) {
      return pullOf(
        await call(
          {
            method: 'POST',
            url: `${base}/pulls`,
            body: {
              title: pr.title,
              head: pr.branch,
              base: pr.base,
              body: pr.body,
              maintainer_can_modify: true,
            },
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
