import { z } from 'zod';
import { parseDuration } from '../core/duration.js';
import { GroundworkError } from '../core/errors.js';
import { urlProblem } from '../core/outbound-url.js';
import { npmRegistryOf } from '../source/dependencies/registry-url.js';
import type { SourceRef } from '../source/fetch-revision.js';
import { checkRepoUrl } from '../source/repo-url.js';
import { hubSourceOf } from '../hub/hub-source.js';
import { commitStatusOf } from './commit-status-flags.js';
import { httpBindOf } from './http-server.js';
import { AGENT_FLAGS, type FlagKind, type FlagSpec } from './agent-flags.js';
import { checkTrustedSyncName } from './trusted-sync-name.js';
import { HUB_RELEASE_POLICIES } from './release-gate.js';
import {
  type AgentFlagName,
  type AgentFlagText,
  type AgentFlagValues,
  type AgentOptions,
} from './options.js';

/** The text of one kind of flag, read: a duration in milliseconds, a number, a mode, a switch. */
const KIND_SCHEMAS: Record<FlagKind, z.ZodType> = {
  text: z.string(),
  duration: z.string().transform((text, ctx) => {
    try {
      return parseDuration(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `not a duration: use e.g. 90s, 5m or 1h` });
      return z.NEVER;
    }
  }),
  fraction: z.string().transform(Number).pipe(z.number().min(0).max(1)),
  port: z.string().transform(Number).pipe(z.number().int().min(0).max(65_535)),
  switch: z.boolean(),
  mode: z.enum(['detect-only', 'self-heal'], { error: 'must be detect-only or self-heal' }),
  releases: z.enum(HUB_RELEASE_POLICIES, { error: 'must be auto, required or off' }),
};

/** One flag's schema: its kind's, with its default (as typed, read like a given value) and its help line. */
function flagSchema(spec: FlagSpec): z.ZodType {
  const kind = KIND_SCHEMAS[spec.kind];
  const present =
    spec.default !== undefined
      ? kind.prefault(spec.default)
      : spec.flag.startsWith('--no-')
        ? kind.default(true)
        : spec.required
          ? kind
          : kind.optional();
  return present.describe(spec.doc);
}

/**
 * The agent's flags as one zod schema, derived from `AGENT_FLAGS`: each flag's text read by its
 * kind, its default filled in, its help line as the description. Unknown keys are refused.
 */
export const agentFlagsSchema = z
  .strictObject(
    Object.fromEntries(
      (Object.entries(AGENT_FLAGS) as [AgentFlagName, FlagSpec][]).map(([name, spec]) => [
        name,
        flagSchema(spec),
      ]),
    ),
  )
  .meta({ description: 'groundwork agent flags' }) as unknown as z.ZodType<AgentFlagValues, AgentFlagText>;

/**
 * Reads the flags `names` of `text` (every flag when absent): defaults filled in, durations in
 * milliseconds. Throws `InvalidFlag` naming the first flag that does not read (its value is not
 * echoed).
 */
export function readAgentFlags(text: AgentFlagText, names?: readonly AgentFlagName[]): AgentFlagValues {
  const only = names && new Set<string>(names);
  const schema = only
    ? (agentFlagsSchema as unknown as z.ZodObject).pick(
        Object.fromEntries(names.map((n) => [n, true])) as never,
      )
    : agentFlagsSchema;
  const picked = only ? Object.fromEntries(Object.entries(text).filter(([k]) => only.has(k))) : text;
  const parsed = schema.safeParse(picked);
  if (parsed.success) return parsed.data as AgentFlagValues;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? '') as AgentFlagName;
  throw new GroundworkError({
    code: 'InvalidFlag',
    subject: AGENT_FLAGS[name]?.flag.split(' ')[0] ?? name,
    message: issue.message,
    fix: `see groundwork agent --help: ${AGENT_FLAGS[name]?.doc ?? 'an unknown flag'}`,
  });
}

/** The flags with a default (or a `--no-x` switch): what a caller of `startAgent` may leave out. */
export type DefaultedFlag = Exclude<keyof AgentFlagValues, 'repo' | 'overlay'> &
  { [K in AgentFlagName]: undefined extends AgentFlagValues[K] ? never : K }[AgentFlagName];

/** The agent's defaults, read from `AGENT_FLAGS` by the schema, as a flag left out is. */
export const AGENT_DEFAULTS: Pick<AgentFlagValues, DefaultedFlag> = readAgentFlags(
  Object.fromEntries(
    (Object.keys(AGENT_FLAGS) as AgentFlagName[])
      .filter((k) => AGENT_FLAGS[k].kind === 'text' && 'required' in AGENT_FLAGS[k])
      .map((k) => [k, 'required']),
  ),
);

/** `--commit` (searched on `--branch` when given), else `--tag`, else `--branch` (default `main`). */
export function sourceRefOf(flags: { branch?: string; tag?: string; commit?: string }): SourceRef {
  if (flags.commit) return { commit: flags.commit, ...(flags.branch ? { branch: flags.branch } : {}) };
  if (flags.tag) return { tag: flags.tag };
  return { branch: flags.branch ?? 'main' };
}

/**
 * The `groundwork agent` command line, read into the agent's options: every flag checked by the
 * schema (`readAgentFlags`), the repository URL (`checkRepoUrl`), the commit status flags
 * (`commitStatusOf`) and `--http-bind` (`httpBindOf`, with `env` telling a pod); the folded flags
 * (`FoldedFlag`) into their options; every other flag into the option of its name.
 * GROUNDWORK_WEBHOOK_SECRET and GROUNDWORK_NPM_REGISTRY come from `env`.
 */
export function agentOptionsOf(text: AgentFlagText, env: NodeJS.ProcessEnv): AgentOptions {
  const values = readAgentFlags(text);
  const {
    repo,
    branch,
    tag,
    commit,
    path,
    interval,
    resyncInterval,
    leaderElect,
    leaseDuration,
    httpPort,
    httpBind,
    commitStatusSecret,
    commitStatusForge,
    commitStatusApi,
    dashboardUrl,
    synthTimeout,
    npmTimeout,
    ...same
  } = values;
  checkRepoUrl(repo);
  checkTrustedSyncName(same);
  const rendererProblem = same.renderer === undefined ? undefined : urlProblem(same.renderer);
  if (rendererProblem)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--renderer',
      message: `the URL ${rendererProblem}`,
      fix: "give the renderer Service's URL, e.g. http://groundwork-renderer.groundwork-system.svc:8443",
    });
  if (same.hub !== undefined)
    hubSourceOf(same.hub); // secret/<bad name> is refused, never read as a file
  else if (same.hubReleases !== AGENT_FLAGS.hubReleases.default)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--hub-releases',
      message: 'gates releases from a fleet hub, and no --hub is given',
      fix: 'pass --hub with the bootstrap kubeconfig, or leave --hub-releases out',
    });
  const host = httpBindOf(httpBind, env);
  const commitStatus = commitStatusOf({
    commitStatusSecret,
    commitStatusForge,
    commitStatusApi,
    dashboardUrl,
  });
  return {
    ...same,
    repository: {
      url: repo,
      ref: sourceRefOf({ branch, tag, commit }),
      ...(path ? { path } : {}),
    },
    intervalMs: interval,
    resyncMs: resyncInterval,
    synthTimeoutMs: synthTimeout,
    npmTimeoutMs: npmTimeout,
    npmRegistry: npmRegistryOf(same.npmRegistry ?? env.GROUNDWORK_NPM_REGISTRY),
    ...(env.GROUNDWORK_WEBHOOK_SECRET ? { webhookSecret: env.GROUNDWORK_WEBHOOK_SECRET } : {}),
    ...(httpPort > 0 ? { http: { host, port: httpPort } } : {}),
    ...(leaderElect
      ? {
          leaderElection: {
            leaseDurationMs: leaseDuration,
            renewDeadlineMs: Math.round(leaseDuration * 0.66),
            retryPeriodMs: Math.round(leaseDuration / 7.5),
          },
        }
      : {}),
    ...(commitStatus ? { commitStatus } : {}),
  };
}
