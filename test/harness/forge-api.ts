import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * The commit status endpoints of GitHub and GitLab, encoded from their published documentation
 * (the forges cannot run here; Gitea runs for real, test/harness/gitea.ts):
 *
 * - GitHub, "Create a commit status", REST API version 2022-11-28,
 *   https://docs.github.com/en/rest/commits/statuses#create-a-commit-status — `POST
 *   /repos/{owner}/{repo}/statuses/{sha}`; body `state` (required: error, failure, pending,
 *   success), `target_url` (string or null), `description` (string or null), `context` (string);
 *   headers `Authorization: Bearer <token>`, `Accept: application/vnd.github+json` and
 *   `X-GitHub-Api-Version: 2022-11-28` as the page's examples send them; answers 201. GitHub keeps
 *   at most 1000 statuses per sha and context, and shows descriptions up to 140 characters.
 * - GitLab, "Set the pipeline status of a commit", https://docs.gitlab.com/api/commits/#set-the-pipeline-status-of-a-commit
 *   — `POST /projects/:id/statuses/:sha` (`id`: a number or the URL-encoded path); attributes
 *   `state` (required: pending, running, success, failed, canceled, skipped), `ref`, `name` or
 *   `context`, `target_url`, `description`, `coverage` (float), `pipeline_id` (integer);
 *   authentication by `PRIVATE-TOKEN` or `Authorization: Bearer`
 *   (https://docs.gitlab.com/api/rest/authentication/); answers 201.
 */
const github = {
  route: /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/,
  body: z
    .object({
      state: z.enum(['error', 'failure', 'pending', 'success']),
      target_url: z.string().url().nullable().optional(),
      description: z.string().max(140).nullable().optional(),
      context: z.string().optional(),
    })
    .strict(),
  auth: (h: IncomingMessage['headers'], token: string) =>
    h.authorization === `Bearer ${token}` &&
    h.accept === 'application/vnd.github+json' &&
    h['x-github-api-version'] === '2022-11-28',
};

const gitlab = {
  route: /^\/projects\/([^/]+)\/statuses\/([0-9a-f]{40})$/,
  body: z
    .object({
      state: z.enum(['pending', 'running', 'success', 'failed', 'canceled', 'skipped']),
      ref: z.string().optional(),
      name: z.string().optional(),
      context: z.string().optional(),
      target_url: z.string().url().optional(),
      description: z.string().optional(),
      coverage: z.number().optional(),
      pipeline_id: z.number().int().optional(),
    })
    .strict(),
  auth: (h: IncomingMessage['headers'], token: string) =>
    h['private-token'] === token || h.authorization === `Bearer ${token}`,
};

/** One request the server saw, with what was wrong with it (empty: it follows the documented API). */
export interface ForgeRequest {
  readonly path: string;
  readonly body: unknown;
  readonly problems: string[];
}

export interface ForgeApi {
  /** The API root to give the client (`http://127.0.0.1:<port>`, GitLab with `/api/v4`). */
  readonly apiUrl: string;
  readonly requests: ForgeRequest[];
  close(): Promise<void>;
}

/**
 * A loopback server for `forge`'s commit status endpoint: each request is checked against the
 * documented route, headers and body (above), recorded, and answered 201 when it follows them,
 * 401 for a wrong token, 422 otherwise. `answer` overrides the status (fault injection).
 */
export async function startForgeApi(
  forge: 'github' | 'gitlab',
  token: string,
  answer?: (n: number) => number | undefined,
): Promise<ForgeApi> {
  const spec = forge === 'github' ? github : gitlab;
  const prefix = forge === 'gitlab' ? '/api/v4' : '';
  const requests: ForgeRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const problems: string[] = [];
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      if (!spec.route.test(path)) problems.push(`route ${path}`);
      if (!String(req.headers['content-type']).startsWith('application/json')) problems.push('content-type');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const parsed = spec.body.safeParse(body);
        if (!parsed.success)
          problems.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
      } catch {
        problems.push('body is not JSON');
      }
      const authorized = spec.auth(req.headers, token);
      requests.push({ path, body, problems: authorized ? problems : [...problems, 'unauthorized'] });
      const status = answer?.(requests.length) ?? (!authorized ? 401 : problems.length ? 422 : 201);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ problems }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
