import type { z } from 'zod';
import type { ForgeRepo } from '../../report/notifications/forge.js';
import { forgeCall, type ForgeCallOptions, type ForgeRequest } from './forge-call.js';
import type { PullRequestForge } from './pull-request-forge.js';
import { anyAnswer, githubLikePull, listOf } from './pull-request-schema.js';

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
  const call = <T>(req: Omit<ForgeRequest, 'headers'>, schema: z.ZodType<T>) =>
    forgeCall({ ...req, headers }, schema, { maxBytes: 4 * 1024 * 1024, ...opts });
  const toPr = (p: z.infer<typeof githubLikePull>) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    url: p.html_url,
    base: p.base.ref,
  });
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
        if (mine) return toPr(mine);
        if (pulls.length < 20) return undefined;
      }
      return undefined;
    },
    async open(pr) {
      return toPr(
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
    async update(index, change) {
      await call(
        {
          method: 'PATCH',
          url: `${base}/pulls/${index}`,
          body: { title: change.title, body: change.body },
          what: `update pull request #${index}`,
        },
        anyAnswer,
      );
    },
    async close(index, comment) {
      await call(
        {
          method: 'POST',
          url: `${base}/issues/${index}/comments`,
          body: { body: comment },
          what: `comment on pull request #${index}`,
        },
        anyAnswer,
      );
      await call(
        {
          method: 'PATCH',
          url: `${base}/pulls/${index}`,
          body: { state: 'closed' },
          what: `close pull request #${index}`,
        },
        anyAnswer,
      );
    },
  };
}

const enc = encodeURIComponent;
