import type { Forge } from '../../report/notifications/forge.js';

/** An open pull request (GitLab: merge request) as Groundwork reads it back: data, never instructions. */
export interface PullRequest {
  /** GitHub's and Gitea's `number`, GitLab's `iid`. */
  readonly number: number;
  readonly title: string;
  /** The description as the forge holds it ('' when none). Compared, never rendered. */
  readonly body: string;
  /** The page a person opens (`html_url`, GitLab's `web_url`). */
  readonly url: string;
  /** The branch it merges into (`base.ref`, GitLab's `target_branch`). */
  readonly base: string;
}

/** What a new pull request is made of. */
export interface NewPullRequest {
  /** The head branch, in the same repository. */
  readonly branch: string;
  /** The branch it would merge into (the first environment's ref). */
  readonly base: string;
  readonly title: string;
  /** Markdown from the preview's builder (`proposalBody`). */
  readonly body: string;
}

/**
 * The pull-request side of a forge, one implementation per forge (GitHub, GitLab, Gitea/Forgejo),
 * each over bounded requests with retries (`forgeCall`). It never merges: there is no method for it.
 * Every method rejects with `ForgeRequestFailed` (the token never quoted) when the forge does not
 * do what was asked.
 */
export interface PullRequestForge {
  readonly forge: Forge;
  /** The open pull request whose head is `branch` of this repository, or undefined. */
  find(branch: string): Promise<PullRequest | undefined>;
  open(pr: NewPullRequest): Promise<PullRequest>;
  /** Replaces the title and description. */
  update(number: number, change: { title: string; body: string }): Promise<void>;
  /** Posts `comment` (why it is closed), then closes the pull request without merging it. */
  close(number: number, comment: string): Promise<void>;
}
