import type { z } from 'zod';
import type { ForgeRequest } from './forge-call.js';
import type { PullRequest, PullRequestForge } from './pull-request-forge.js';
import { anyAnswer, type githubLikePull } from './pull-request-schema.js';

/** One request to the forge's API, its answer parsed with `schema` (the client's headers added). */
export type ForgeCaller = <T>(req: Omit<ForgeRequest, 'headers'>, schema: z.ZodType<T>) => Promise<T>;

/** A GitHub-shaped pull request (GitHub's and Gitea's API) as the forge interface gives it. */
export function pullOf(p: z.infer<typeof githubLikePull>): PullRequest {
  return { number: p.number, title: p.title, body: p.body, url: p.html_url, base: p.base.ref };
}

/**
 * Update and close as GitHub and Gitea both do them, under `base` (`<api>/repos/<owner>/<repo>`):
 * `PATCH pulls/{n}` with `title`, `body` or `state: closed`, the closing comment first as
 * `POST issues/{n}/comments`.
 */
export function githubLikeEdits(base: string, call: ForgeCaller): Pick<PullRequestForge, 'update' | 'close'> {
  return {
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
