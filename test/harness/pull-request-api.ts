import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * The pull-request endpoints of GitHub and GitLab, encoded from their published documentation
 * (neither forge can run here; Gitea runs for real, test/harness/gitea.ts). Request bodies are
 * strict: a field the documentation does not list is a problem.
 *
 * GitHub, REST API version 2022-11-28 (headers `Authorization: Bearer`, `Accept:
 * application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`):
 * - `GET /repos/{owner}/{repo}/pulls`, query `state` (open, closed, all), `head` (`user:ref-name`),
 *   `base`, `sort`, `direction`, `per_page`, `page`
 *   (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests);
 * - `POST /repos/{owner}/{repo}/pulls`, body `title`, `head` (required), `head_repo`, `base`
 *   (required), `body`, `maintainer_can_modify`, `draft`, `issue`; answers 201
 *   (https://docs.github.com/en/rest/pulls/pulls#create-a-pull-request);
 * - `PATCH /repos/{owner}/{repo}/pulls/{pull_number}`, body `title`, `body`, `state` (open,
 *   closed), `base`, `maintainer_can_modify`; answers 200
 *   (https://docs.github.com/en/rest/pulls/pulls#update-a-pull-request);
 * - `POST /repos/{owner}/{repo}/issues/{issue_number}/comments`, body `body` (required); answers 201
 *   (https://docs.github.com/en/rest/issues/comments#create-an-issue-comment).
 *
 * GitLab (`:id` the project's ID or URL-encoded path; `PRIVATE-TOKEN` or `Authorization: Bearer`):
 * - `GET /projects/:id/merge_requests`, query `state` (opened, closed, locked, merged, all),
 *   `source_branch`, `target_branch`, `per_page`, `page`, ...
 *   (https://docs.gitlab.com/api/merge_requests/#list-project-merge-requests);
 * - `POST /projects/:id/merge_requests`, attributes `source_branch`, `target_branch`, `title`
 *   (required), `description`, `remove_source_branch`, `squash`, `labels`, `assignee_id(s)`,
 *   `reviewer_ids`, `milestone_id`, `allow_collaboration`, `target_project_id`, ...; answers 201
 *   (https://docs.gitlab.com/api/merge_requests/#create-mr);
 * - `PUT /projects/:id/merge_requests/:merge_request_iid`, attributes `title`, `description`,
 *   `state_event` (close, reopen), `target_branch`, `labels`, ...; answers 200
 *   (https://docs.gitlab.com/api/merge_requests/#update-mr);
 * - `POST /projects/:id/merge_requests/:merge_request_iid/notes`, attributes `body` (required),
 *   `internal`, `created_at`, `merge_request_diff_head_sha`; answers 201
 *   (https://docs.gitlab.com/api/notes/#create-new-merge-request-note).
 */
const github = {
  routes: [
    { name: 'list', method: 'GET', path: /^\/repos\/([^/]+)\/([^/]+)\/pulls$/ },
    { name: 'create', method: 'POST', path: /^\/repos\/([^/]+)\/([^/]+)\/pulls$/ },
    { name: 'update', method: 'PATCH', path: /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/ },
    { name: 'comment', method: 'POST', path: /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/ },
  ],
  query: z
    .object({
      state: z.enum(['open', 'closed', 'all']).optional(),
      head: z
        .string()
        .regex(/^[^:]+:.+$/)
        .optional(),
      base: z.string().optional(),
      sort: z.enum(['created', 'updated', 'popularity', 'long-running']).optional(),
      direction: z.enum(['asc', 'desc']).optional(),
      per_page: z.coerce.number().int().min(1).max(100).optional(),
      page: z.coerce.number().int().min(1).optional(),
    })
    .strict(),
  bodies: {
    create: z
      .object({
        title: z.string().optional(),
        head: z.string(),
        head_repo: z.string().optional(),
        base: z.string(),
        body: z.string().max(65_536).optional(),
        maintainer_can_modify: z.boolean().optional(),
        draft: z.boolean().optional(),
        issue: z.number().int().optional(),
      })
      .strict(),
    update: z
      .object({
        title: z.string().optional(),
        body: z.string().max(65_536).optional(),
        state: z.enum(['open', 'closed']).optional(),
        base: z.string().optional(),
        maintainer_can_modify: z.boolean().optional(),
      })
      .strict(),
    comment: z.object({ body: z.string() }).strict(),
  } as Record<string, z.ZodType>,
  auth: (h: IncomingMessage['headers'], token: string) =>
    h.authorization === `Bearer ${token}` &&
    h.accept === 'application/vnd.github+json' &&
    h['x-github-api-version'] === '2022-11-28',
};

const gitlab = {
  routes: [
    { name: 'list', method: 'GET', path: /^\/projects\/([^/]+)\/merge_requests$/ },
    { name: 'create', method: 'POST', path: /^\/projects\/([^/]+)\/merge_requests$/ },
    { name: 'update', method: 'PUT', path: /^\/projects\/([^/]+)\/merge_requests\/(\d+)$/ },
    { name: 'comment', method: 'POST', path: /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes$/ },
  ],
  query: z
    .object({
      state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).optional(),
      source_branch: z.string().optional(),
      target_branch: z.string().optional(),
      per_page: z.coerce.number().int().min(1).max(100).optional(),
      page: z.coerce.number().int().min(1).optional(),
    })
    .strict(),
  bodies: {
    create: z
      .object({
        source_branch: z.string(),
        target_branch: z.string(),
        title: z.string(),
        description: z.string().max(1_048_576).optional(),
        remove_source_branch: z.boolean().optional(),
        squash: z.boolean().optional(),
        labels: z.string().optional(),
        assignee_id: z.number().int().optional(),
        assignee_ids: z.array(z.number().int()).optional(),
        reviewer_ids: z.array(z.number().int()).optional(),
        milestone_id: z.number().int().optional(),
        allow_collaboration: z.boolean().optional(),
        target_project_id: z.number().int().optional(),
      })
      .strict(),
    update: z
      .object({
        title: z.string().optional(),
        description: z.string().max(1_048_576).optional(),
        state_event: z.enum(['close', 'reopen']).optional(),
        target_branch: z.string().optional(),
        labels: z.string().optional(),
        remove_source_branch: z.boolean().optional(),
        squash: z.boolean().optional(),
        discussion_locked: z.boolean().optional(),
      })
      .strict(),
    comment: z
      .object({
        body: z.string(),
        internal: z.boolean().optional(),
        created_at: z.string().optional(),
        merge_request_diff_head_sha: z.string().optional(),
      })
      .strict(),
  } as Record<string, z.ZodType>,
  auth: (h: IncomingMessage['headers'], token: string) =>
    h['private-token'] === token || h.authorization === `Bearer ${token}`,
};

/** One request the fake saw, with what was wrong with it (empty: it follows the documented API). */
export interface PullRequestApiRequest {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly headers: IncomingMessage['headers'];
  readonly problems: string[];
}

/** A pull request the fake holds. */
export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
  comments: string[];
}

export interface PullRequestApi {
  /** The API root to give the client (`http://127.0.0.1:<port>`, GitLab with `/api/v4`). */
  readonly apiUrl: string;
  readonly requests: PullRequestApiRequest[];
  readonly pulls: FakePull[];
  close(): Promise<void>;
}

/**
 * A loopback fake of `forge`'s pull-request endpoints for repository `path` (`owner/name`): each
 * request is checked against the documented route, query, headers and body (above) and recorded;
 * one that follows them acts on an in-memory list of pull requests and is answered as the forge
 * would (201/200 with the documented fields Groundwork reads), 401 for a wrong token, 422 for any
 * other problem. `answer` may take over a request (fault injection: a status, a body, a redirect).
 */
export async function startPullRequestApi(
  forge: 'github' | 'gitlab',
  opts: {
    token: string;
    path: string;
    answer?: (req: PullRequestApiRequest, n: number, res: ServerResponse) => boolean;
  },
): Promise<PullRequestApi> {
  const spec = forge === 'github' ? github : gitlab;
  const prefix = forge === 'gitlab' ? '/api/v4' : '';
  const requests: PullRequestApiRequest[] = [];
  const pulls: FakePull[] = [];
  let port = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rawPath = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
      const problems: string[] = [];
      const route = spec.routes.find((r) => r.method === req.method && r.path.test(rawPath));
      if (!route) problems.push(`no documented route ${req.method} ${rawPath}`);
      const match = route?.path.exec(rawPath) ?? [];
      const repoPath =
        forge === 'github'
          ? `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`
          : decodeURIComponent(match[1] ?? '');
      if (route && repoPath !== opts.path) problems.push(`repository ${repoPath}`);
      const query = Object.fromEntries(url.searchParams);
      const q = spec.query.safeParse(query);
      if (route?.name === 'list' && !q.success)
        problems.push(...q.error.issues.map((i) => `query ${i.path.join('.')}: ${i.message}`));
      if (route?.name !== 'list' && Object.keys(query).length > 0) problems.push('a query on a write');
      let body: unknown;
      if (route && route.name !== 'list') {
        if (!String(req.headers['content-type']).startsWith('application/json'))
          problems.push('content-type');
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const parsed = spec.bodies[route.name]!.safeParse(body);
          if (!parsed.success)
            problems.push(...parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`));
        } catch {
          problems.push('body is not JSON');
        }
      }
      if (!spec.auth(req.headers, opts.token)) problems.push('unauthorized');
      const seen: PullRequestApiRequest = {
        method: req.method ?? '',
        route: route?.name ?? 'none',
        path: rawPath,
        query,
        body,
        headers: req.headers,
        problems,
      };
      requests.push(seen);
      if (opts.answer?.(seen, requests.length, res)) return;
      if (problems.length > 0)
        return json(res, problems.includes('unauthorized') ? 401 : 422, { message: problems.join('; ') });
      const n = Number(match[forge === 'github' ? 3 : 2]);
      const b = (body ?? {}) as Record<string, unknown>;
      const web = `http://127.0.0.1:${port}/${opts.path}/pull`;
      const show = (p: FakePull) =>
        forge === 'github'
          ? {
              number: p.number,
              title: p.title,
              body: p.body || null,
              state: p.state,
              html_url: `${web}/${p.number}`,
              head: { ref: p.head, repo: { full_name: opts.path } },
              base: { ref: p.base },
            }
          : {
              iid: p.number,
              id: 1000 + p.number,
              title: p.title,
              description: p.body || null,
              state: p.state === 'open' ? 'opened' : 'closed',
              web_url: `${web}/${p.number}`,
              source_branch: p.head,
              target_branch: p.base,
              source_project_id: 7,
              target_project_id: 7,
            };
      const find = () => pulls.find((p) => p.number === n);
      switch (route!.name) {
        case 'list': {
          const state = forge === 'github' ? query.state : query.state === 'opened' ? 'open' : query.state;
          const head = forge === 'github' ? query.head?.split(':').slice(1).join(':') : query.source_branch;
          return json(
            res,
            200,
            pulls
              .filter((p) => (!state || state === 'all' || p.state === state) && (!head || p.head === head))
              .map(show),
          );
        }
        case 'create': {
          const pull: FakePull = {
            number: pulls.length + 1,
            title: String(b.title ?? ''),
            body: String((forge === 'github' ? b.body : b.description) ?? ''),
            head: String(forge === 'github' ? b.head : b.source_branch),
            base: String(forge === 'github' ? b.base : b.target_branch),
            state: 'open',
            comments: [],
          };
          pulls.push(pull);
          return json(res, 201, show(pull));
        }
        case 'update': {
          const pull = find();
          if (!pull) return json(res, 404, { message: 'Not Found' });
          if (typeof b.title === 'string') pull.title = b.title;
          const text = forge === 'github' ? b.body : b.description;
          if (typeof text === 'string') pull.body = text;
          if (b.state === 'closed' || b.state_event === 'close') pull.state = 'closed';
          return json(res, 200, show(pull));
        }
        case 'comment': {
          const pull = find();
          if (!pull) return json(res, 404, { message: 'Not Found' });
          pull.comments.push(String(b.body));
          return json(res, 201, { id: pull.comments.length, body: b.body });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    pulls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
