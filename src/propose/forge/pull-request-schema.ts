import { z } from 'zod';

/** Bounds of what a forge answers about a pull request (GitHub caps a body at 65,536 characters). */
const title = z.string().max(4096);
const body = z
  .string()
  .max(1_000_000)
  .nullish()
  .transform((b) => b ?? '');
const number = z.number().int().positive();
const webUrl = z.string().max(2048);

/**
 * A pull request in GitHub's answers ("pull request simple" and "pull request" objects,
 * https://docs.github.com/en/rest/pulls/pulls) and Gitea's (`PullRequest` in its swagger): only
 * the fields Groundwork reads, the others ignored.
 */
export const githubLikePull = z.looseObject({
  number,
  title,
  body,
  html_url: webUrl,
  head: z.looseObject({
    ref: z.string().max(1024),
    repo: z.looseObject({ full_name: z.string().max(1024) }).nullish(),
  }),
  base: z.looseObject({ ref: z.string().max(1024) }),
});

/** A merge request in GitLab's answers (https://docs.gitlab.com/api/merge_requests/): the fields read. */
export const gitlabMergeRequest = z.looseObject({
  iid: number,
  title,
  description: body,
  web_url: webUrl,
  source_branch: z.string().max(1024),
  target_branch: z.string().max(1024),
  source_project_id: z.number().int(),
  target_project_id: z.number().int(),
});

/** At most this many pull requests are read from one list answer. */
export const listOf = <T extends z.ZodType>(item: T) => z.array(item).max(100);

/** Answers whose content is not read (an update, a comment): any JSON. */
export const anyAnswer = z.unknown();
