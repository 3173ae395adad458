import type { z } from 'zod';
import type { ForgeRepo } from '../../report/notifications/forge.js';
import { forgeCall, type ForgeCallOptions, type ForgeRequest } from './forge-call.js';
import type { PullRequestForge } from './pull-request-forge.js';
import { anyAnswer, gitlabMergeRequest, listOf } from './pull-request-schema.js';

/**
 * GitLab's merge requests (`:id` is the project's URL-encoded path):
 * - find: `GET /projects/:id/merge_requests?state=opened&source_branch=<branch>`
 *   (https://docs.gitlab.com/api/merge_requests/#list-project-merge-requests), from the project itself (not a fork);
 * - open: `POST /projects/:id/merge_requests` with `source_branch`, `target_branch`, `title`, `description`,
 *   `remove_source_branch` (https://docs.gitlab.com/api/merge_requests/#create-mr);
 * - update and close: `PUT /projects/:id/merge_requests/:merge_request_iid` with `title`, `description` /
 *   `state_event: close` (https://docs.gitlab.com/api/merge_requests/#update-mr);
 * - the closing note: `POST /projects/:id/merge_requests/:merge_request_iid/notes` with `body`
 *   (https://docs.gitlab.com/api/notes/#create-new-merge-request-note).
 * The token goes as `PRIVATE-TOKEN` (https://docs.gitlab.com/api/rest/authentication/).
 */
export function gitlabForge(repo: ForgeRepo, opts: ForgeCallOptions): PullRequestForge {
  const base = `${repo.apiUrl}/projects/${encodeURIComponent(repo.path)}/merge_requests`;
  const headers = {
    Accept: 'application/json',
    'PRIVATE-TOKEN': opts.token,
    'User-Agent': 'groundwork-propose',
  };
  const call = <T>(req: Omit<ForgeRequest, 'headers'>, schema: z.ZodType<T>) =>
    forgeCall({ ...req, headers }, schema, opts);
  const toPr = (m: z.infer<typeof gitlabMergeRequest>) => ({
    number: m.iid,
    title: m.title,
    body: m.description,
    url: m.web_url,
    base: m.target_branch,
  });
  return {
    forge: 'gitlab',
    async find(branch) {
      const query = new URLSearchParams({ state: 'opened', source_branch: branch, per_page: '10' });
      const mrs = await call(
        { method: 'GET', url: `${base}?${query}`, what: `find the merge request of ${branch}` },
        listOf(gitlabMergeRequest),
      );
      const mine = mrs.find((m) => m.source_branch === branch && m.source_project_id === m.target_project_id);
      return mine && toPr(mine);
    },
    async open(pr) {
      return toPr(
        await call(
          {
            method: 'POST',
            url: base,
            body: {
              source_branch: pr.branch,
              target_branch: pr.base,
              title: pr.title,
              description: pr.body,
              remove_source_branch: true,
            },
            what: `open a merge request for ${pr.branch}`,
          },
          gitlabMergeRequest,
        ),
      );
    },
    async update(iid, change) {
      await call(
        {
          method: 'PUT',
          url: `${base}/${iid}`,
          body: { title: change.title, description: change.body },
          what: `update merge request !${iid}`,
        },
        anyAnswer,
      );
    },
    async close(iid, comment) {
      await call(
        {
          method: 'POST',
          url: `${base}/${iid}/notes`,
          body: { body: comment },
          what: `comment on merge request !${iid}`,
        },
        anyAnswer,
      );
      await call(
        {
          method: 'PUT',
          url: `${base}/${iid}`,
          body: { state_event: 'close' },
          what: `close merge request !${iid}`,
        },
        anyAnswer,
      );
    },
  };
}
