import type { z } from 'zod';
import type { ForgeRepo } from '../../report/notifications/forge.js';
import { forgeCall, type ForgeCallOptions, type ForgeRequest } from './forge-call.js';
import type { PullRequestForge } from './pull-request-forge.js';
import { anyAnswer, githubLikePull, listOf } from './pull-request-schema.js';

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
  const call = <T>(req: Omit<ForgeRequest, 'headers'>, schema: z.ZodType<T>) =>
    forgeCall({ ...req, headers }, schema, opts);
  const toPr = (p: z.infer<typeof githubLikePull>) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    url: p.html_url,
    base: p.base.ref,
  });
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
      return mine && toPr(mine);
    },
    async open(pr) {
      return toPr(
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
    async update(number, change) {
      await call(
        {
          method: 'PATCH',
          url: `${base}/pulls/${number}`,
          body: { title: change.title, body: change.body },
          what: `update pull request #${number}`,
        },
        anyAnswer,
      );
    },
    async close(number, comment) {
      await call(
        {
          method: 'POST',
          url: `${base}/issues/${number}/comments`,
          body: { body: comment },
          what: `comment on pull request #${number}`,
        },
        anyAnswer,
      );
      await call(
        {
          method: 'PATCH',
          url: `${base}/pulls/${number}`,
          body: { state: 'closed' },
          what: `close pull request #${number}`,
        },
        anyAnswer,
      );
    },
  };
}

const enc = encodeURIComponent;
