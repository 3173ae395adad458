import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { loadProjectConfig } from '../../project/config.js';
import { pullRequestForge } from '../../propose/forge/open-forge.js';
import type { ProposalSet } from '../../propose/proposal.js';
import { publishProposals, type PublishOutcome } from '../../propose/publish.js';
import type { Forge } from '../../report/notifications/forge.js';
import { checkoutFacts } from '../../source/proposal-branch.js';
import type { SetExitCode } from '../commands/command-module.js';
import { ExitCode } from '../exit-code.js';
import { DEFAULT_TOKEN_ENV, type ProposePublishFlags } from '../propose-publish-flags.js';
import { previewRevisions } from './preview.js';

/**
 * Checks the publishing flags before anything runs and takes the forge token: refuses
 * `--trust-repository` (the platform is rendered while the token is held: only an isolated renderer
 * may do that), reads the variable `--token-env` names (default `GROUNDWORK_FORGE_TOKEN`; never a
 * flag's value, never the repository) and removes it from this process's environment. Throws
 * `InvalidFlag` / `MissingFlag` naming the variable, never its value.
 */
export function takeForgeToken(flags: Pick<ProposePublishFlags, 'tokenEnv' | 'trustRepository'>): string {
  if (flags.trustRepository)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--trust-repository',
      message:
        'publishing renders the platform and its previews only in an isolated renderer, never beside the forge token',
      fix: 'use --trust-repository with --dry-run only; publish on a machine with user namespaces (or as root)',
    });
  const tokenEnv = flags.tokenEnv ?? DEFAULT_TOKEN_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(tokenEnv))
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--token-env',
      message: 'is not an environment variable name',
      fix: `name the variable holding the token, e.g. --token-env ${DEFAULT_TOKEN_ENV}`,
    });
  const token = process.env[tokenEnv] ?? '';
  if (token === '')
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: tokenEnv,
      message: 'is not set: no forge token to push the branches and open the pull requests with',
      fix: `export ${tokenEnv}=<a token that may write contents and pull requests>, or name another variable with --token-env`,
    });
  delete process.env[tokenEnv];
  return token;
}

/**
 * `groundwork propose` without `--dry-run`: publishes `set` on the forge (`publishProposals`) with
 * `token` (from `takeForgeToken`) and prints one line per group, then one per refusal. The base is
 * the target environment's `ref` (without environments: the checked-out branch); each preview
 * renders as `groundwork preview` does, in isolated renderers. Exit 0 when every group was
 * published or left as it should be, 2 when one failed.
 */
export async function runProposePublish(
  set: ProposalSet,
  flags: ProposePublishFlags,
  token: string,
  setExitCode: SetExitCode,
): Promise<PublishOutcome[]> {
  const root = await realpath(flags.dir);
  const checkout = await checkoutFacts(root);
  const repoUrl = flags.repoUrl ?? checkout.origin;
  if (!repoUrl)
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: '--repo-url',
      message: 'the checkout has no origin remote to publish to',
      fix: 'pass --repo-url https://<host>/<owner>/<name>.git',
    });
  const baseRef = await baseBranch(root, set, flags.environment, checkout.branch);
  const { client } = pullRequestForge({
    repoUrl,
    token,
    ...(flags.forge ? { forge: flags.forge as Forge } : {}),
    ...(flags.forgeApi ? { apiUrl: flags.forgeApi } : {}),
  });
  const platformDir = relative(checkout.root, root).split(sep).join('/');
  const outcomes = await publishProposals(set, {
    forge: client,
    git: { url: repoUrl, auth: { token } },
    baseRef,
    platformDir,
    preview: ({ repoDir, base, head }) =>
      previewRevisions({ repoDir, base, head, overlay: { all: true }, libraryRoots: [root] }),
  });
  for (const o of outcomes)
    process.stdout.write(
      oneLine(
        `${o.outcome.padEnd(9)} ${o.branch}${o.url ? `  ${o.url}` : ''}${o.detail ? `  (${o.detail})` : ''}`,
      ),
    );
  for (const r of set.refused)
    process.stdout.write(
      oneLine(`${'refused'.padEnd(9)} ${r.subject}${r.to ? ` ${r.to}` : ''}: ${r.reason}`),
    );
  setExitCode(outcomes.some((o) => o.outcome === 'failed') ? ExitCode.Error : ExitCode.Ok);
  return outcomes;
}

/** The target environment's ref (the proposals', `--environment`, or the first not promoted from another); else the checked-out branch. */
async function baseBranch(
  root: string,
  set: ProposalSet,
  asked: string | undefined,
  checkedOut: string | undefined,
): Promise<string> {
  const envs = (await loadProjectConfig(root)).environments ?? [];
  const name = set.proposals[0]?.environment ?? asked;
  const env = name ? envs.find((e) => e.name === name) : envs.find((e) => e.promotedFrom === undefined);
  if (env) return env.ref;
  if (checkedOut) return checkedOut;
  throw new GroundworkError({
    code: 'MissingFlag',
    subject: 'base branch',
    message: 'groundwork.yaml declares no environment with a ref and the checkout is on no branch',
    fix: 'declare environments with their ref in groundwork.yaml, or check out the branch proposals target',
  });
}

/** One terminal line: control characters (a forge's or a catalog's text) as spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `${text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')}\n`;
}
