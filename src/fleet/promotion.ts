import { GroundworkError } from '../core/errors.js';
import { windowState } from '../core/window.js';
import type { Environment } from '../project/environments.js';
import type { TrustedKeys } from '../source/trust/trusted-keys.js';
import type { SignatureVerdict } from '../source/trust/verify-signature.js';
import {
  checkSource,
  GATES,
  platformObservations,
  type ClusterObservation,
  type GateFailure,
  type GateName,
} from './gates.js';

/** The git side of a promotion (`src/source/promote.ts` PromotionRepo). */
export interface PromotionGit {
  readonly dir: string;
  fetchBranch(branch: string): Promise<string | undefined>;
  contains(head: string, commit: string): Promise<boolean>;
  stateOf(
    commit: string,
    head: string | undefined,
  ): Promise<{ head: string | undefined; fastForward: boolean; ahead: number }>;
  push(branch: string, commit: string, tag?: { name: string; message: string }): Promise<void>;
  dispose(): Promise<void>;
  /** The signature check of a fetched commit against `keys` (undefined: none trusted). */
  verify?(commit: string, keys: TrustedKeys | undefined): Promise<SignatureVerdict>;
}

/** A change the target environment would get that only a promotion window lets through. */
export interface RiskyChange {
  readonly code: string;
  readonly subject: string;
  readonly message: string;
}

/** What a promotion reads and writes, injected so the decisions stay testable. */
export interface PromotionDeps {
  /** Reads the PlatformSync objects of every cluster of the fleet. */
  observe(): Promise<ClusterObservation[]>;
  openGit(url: string): Promise<PromotionGit>;
  /**
   * Changes from `base` to `head` (commits of the repository in `repoDir`) that restart or reboot
   * something: a ClusterVersion target or a MachineConfig, for the given overlays.
   */
  riskyChanges(
    repoDir: string,
    base: string,
    head: string,
    overlays: readonly string[],
  ): Promise<RiskyChange[]>;
  now(): Date;
}

interface PromotionRequest {
  readonly platform: string;
  readonly environments: readonly Environment[];
  /** The environment to promote into. */
  readonly target: string;
  /** @default the repository the source environment's agents follow */
  readonly repoUrl?: string;
  readonly dryRun: boolean;
  /** Promote past failed gates (never past a non-fast-forward), recording the reason. */
  readonly force?: { readonly reason: string };
  /** Keys a commit must be signed with to enter an environment with `verify: true` (`--trusted-keys`). */
  readonly trustedKeys?: TrustedKeys;
}

interface GateResult {
  readonly gate: GateName;
  readonly passed: boolean;
  readonly failures: readonly GateFailure[];
}

/** The outcome of `groundwork promote`, as data (`-o json`). */
export interface PromotionResult {
  readonly apiVersion: 'groundwork.io/v1';
  readonly kind: 'Promotion';
  readonly environment: string;
  readonly from: string;
  readonly ref: string;
  readonly repository?: string;
  /** The commit the source environment runs (R). */
  readonly commit?: string;
  /** The target ref's head before the promotion. */
  readonly previous?: string;
  /** Commits the promotion adds to the target ref. */
  readonly ahead: number;
  readonly clusters: readonly string[];
  readonly gates: readonly GateResult[];
  /** `promoted`; `would-promote` (dry run); `up-to-date`; `refused`. */
  readonly outcome: 'promoted' | 'would-promote' | 'up-to-date' | 'refused';
  readonly forced?: { readonly reason: string; readonly gates: readonly GateName[] };
  /** The annotated tag that records the promotion. */
  readonly tag?: string;
}

/** Risk codes of changes that restart the cluster version or reboot nodes. */
const RISKY = /^(ClusterVersion|MachineConfig)/;

/**
 * `groundwork promote <environment>`: checks the gates and fast-forwards the environment's ref to the
 * commit R its source environment runs. Gates: every source cluster reachable, Ready, Healthy,
 * without drift or pending waits, all at R, Ready at R for the source's soak time; the target ref
 * moves by fast-forward only; and a change of a ClusterVersion target or a MachineConfig is promoted
 * only inside one of the target's promotion windows (when it has any). `force` passes failed gates
 * (except the fast-forward), and the reason goes into the record: an annotated tag on R naming the
 * gates passed and forced.
 */
export async function promote(req: PromotionRequest, deps: PromotionDeps): Promise<PromotionResult> {
  const target = req.environments.find((e) => e.name === req.target);
  if (!target) {
    throw new GroundworkError({
      code: 'UnknownEnvironment',
      subject: `environment ${req.target}`,
      message: 'not in groundwork.yaml',
      fix: req.environments.length
        ? `use one of: ${req.environments.map((e) => e.name).join(', ')}`
        : 'declare environments in groundwork.yaml (see docs/environments.md)',
    });
  }
  if (target.promotedFrom === undefined) {
    throw new GroundworkError({
      code: 'NotPromoted',
      subject: `environment ${target.name}`,
      message: `its agents follow ${target.ref} directly: commits reach it without promotion`,
      fix: 'set promotedFrom on the environment to promote into it',
    });
  }
  const source = req.environments.find((e) => e.name === target.promotedFrom)!;
  const now = deps.now();
  const observations = await deps.observe();
  const verdict = checkSource({ source, platform: req.platform, observations, now });
  const failures: GateFailure[] = [...verdict.failures];
  // The platform's own PlatformSyncs: another platform of the same clusters follows another repository.
  const urls = [
    ...new Set(
      platformObservations(observations, req.platform).flatMap((o) =>
        o.syncs
          .filter((s) => source.overlays.includes(s.overlay) && s.repository.url !== '')
          .map((s) => s.repository.url),
      ),
    ),
  ];
  const repository = req.repoUrl ?? (urls.length === 1 ? urls[0] : undefined);
  const base = {
    apiVersion: 'groundwork.io/v1' as const,
    kind: 'Promotion' as const,
    environment: target.name,
    from: source.name,
    ref: target.ref,
    ...(repository ? { repository } : {}),
    ...(verdict.commit ? { commit: verdict.commit } : {}),
    clusters: verdict.clusters,
  };
  if (!verdict.commit || !repository) {
    if (!repository && verdict.commit)
      failures.push({
        gate: 'Reachable',
        message:
          urls.length > 1
            ? `the source clusters follow different repositories: ${urls.join(', ')}`
            : 'no repository URL known: pass --repo',
      });
    return { ...base, ahead: 0, gates: gateResults(failures), outcome: 'refused' };
  }
  const commit = verdict.commit;
  const git = await deps.openGit(repository);
  try {
    const sourceHead = await git.fetchBranch(source.ref);
    if (!sourceHead || !(await git.contains(sourceHead, commit)))
      failures.push({
        gate: 'SameRevision',
        message: `${commit.slice(0, 12)} runs in ${source.name} but is not on ${source.ref}${sourceHead ? ` (head ${sourceHead.slice(0, 12)})` : ' (no such branch)'}`,
      });
    const targetHead = await git.fetchBranch(target.ref);
    const state = await git.stateOf(commit, targetHead);
    if (!state.fastForward)
      failures.push({
        gate: 'FastForward',
        message: `${target.ref} is at ${targetHead!.slice(0, 12)}, which ${commit.slice(0, 12)} does not contain: moving it would drop commits; merge ${target.ref} into ${source.ref} first`,
      });
    const windows = windowState(target.windows, now);
    if (state.fastForward && state.ahead > 0 && targetHead && !windows.open) {
      const risky = (await deps.riskyChanges(git.dir, targetHead, commit, target.overlays)).filter((r) =>
        RISKY.test(r.code),
      );
      if (risky.length > 0)
        failures.push({
          gate: 'Window',
          message: `${commit.slice(0, 12)} changes ${risky.map((r) => `${r.subject} (${r.code})`).join(', ')}; ${target.name} takes such changes only in its promotion windows: ${windows.reason}`,
        });
    }
    if (target.verify) failures.push(...(await verifiedGate(git, commit, target.name, req.trustedKeys)));
    const gates = gateResults(failures, target.verify === true);
    const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
    const result = { ...base, ...(targetHead ? { previous: targetHead } : {}), ahead: state.ahead, gates };
    if (failed.some((g) => UNFORCEABLE.includes(g)) || (failed.length > 0 && !req.force))
      return { ...result, outcome: 'refused' };
    const forced =
      failed.length > 0 && req.force ? { forced: { reason: req.force.reason, gates: failed } } : {};
    if (state.ahead === 0) return { ...result, ...forced, outcome: 'up-to-date' };
    const tag = `promote/${target.name}/${stamp(now)}`;
    if (req.dryRun) return { ...result, ...forced, outcome: 'would-promote', tag };
    const promoted = { ...result, ...forced, outcome: 'promoted' as const, tag };
    await git.push(target.ref, commit, { name: tag, message: record(promoted) });
    return promoted;
  } finally {
    await git.dispose();
  }
}

/** Gates `--force` never passes: a push that drops commits, and an unverified commit where verification is required. */
const UNFORCEABLE: readonly GateName[] = ['FastForward', 'Verified'];

/**
 * The `Verified` gate of a target with `verify: true`: the commit must carry a signature by one of
 * `keys` (the check the target's agents make; docs/trusted-commits.md).
 */
async function verifiedGate(
  git: PromotionGit,
  commit: string,
  target: string,
  keys: TrustedKeys | undefined,
): Promise<GateFailure[]> {
  const verdict: SignatureVerdict = git.verify
    ? await git.verify(commit, keys)
    : { verified: false, problem: 'NoTrustedKeys', detail: 'no signature check available' };
  if (verdict.verified) return [];
  const who = [verdict.keyId && `key ${verdict.keyId}`, verdict.signer && `signer ${verdict.signer}`]
    .filter(Boolean)
    .join(', ');
  return [
    {
      gate: 'Verified',
      message: `${commit.slice(0, 12)} ${verdict.problem}: ${verdict.detail}${who ? ` (${who})` : ''}; ${target} takes only commits signed by a trusted key (verify: true)${keys ? '' : ': pass --trusted-keys <file>'}`,
    },
  ];
}

function gateResults(failures: readonly GateFailure[], verify = false): GateResult[] {
  return GATES.filter((g) => g !== 'Verified' || verify).map((gate) => {
    const mine = failures.filter((f) => f.gate === gate);
    return { gate, passed: mine.length === 0, failures: mine };
  });
}

/** `20261125T001700Z`: sortable, and valid in a tag name. */
function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/** The annotated tag's message: what was promoted, from where, and which gates passed or were forced. */
function record(r: PromotionResult): string {
  const passed = r.gates.filter((g) => g.passed).map((g) => g.gate);
  return [
    `Promote ${r.commit?.slice(0, 12)} to ${r.environment} (${r.ref}) from ${r.from}`,
    '',
    `Clusters: ${r.clusters.join(', ') || '(none)'}`,
    `Previous: ${r.previous ?? '(new branch)'}`,
    '',
    `Groundwork-Environment: ${r.environment}`,
    `Groundwork-Promoted-From: ${r.from}`,
    `Groundwork-Gates-Passed: ${passed.join(', ')}`,
    ...(r.forced
      ? [
          `Groundwork-Gates-Forced: ${r.forced.gates.join(', ')}`,
          `Groundwork-Force-Reason: ${r.forced.reason}`,
        ]
      : []),
    '',
  ].join('\n');
}

/** For terminals: one line per gate, failures indented under it, then the outcome. */
export function promotionText(r: PromotionResult): string {
  const head = `promote ${r.environment} from ${r.from}: ${r.commit ? r.commit.slice(0, 12) : '(no single revision)'} onto ${r.ref}${r.ahead > 0 ? ` (${r.ahead} commit${r.ahead === 1 ? '' : 's'})` : ''}`;
  const lines = [head];
  for (const g of r.gates) {
    lines.push(`  ${g.passed ? 'ok  ' : 'FAIL'} ${g.gate}`);
    for (const f of g.failures) lines.push(`         ${f.cluster ? `${f.cluster}: ` : ''}${f.message}`);
  }
  const failed = r.gates.filter((g) => !g.passed).length;
  const outcome = {
    promoted: `promoted: ${r.ref} -> ${r.commit?.slice(0, 12)}, recorded in tag ${r.tag}`,
    'would-promote': `dry run: would move ${r.ref} to ${r.commit?.slice(0, 12)} and tag ${r.tag}`,
    'up-to-date': `${r.ref} already holds ${r.commit?.slice(0, 12)}: nothing to promote`,
    refused: `refused: ${failed} gate${failed === 1 ? '' : 's'} failed${r.gates.some((g) => UNFORCEABLE.includes(g.gate) && !g.passed) ? '' : ' (--force --reason "..." promotes anyway and records why)'}`,
  }[r.outcome];
  lines.push(
    r.forced ? `${outcome} (forced past ${r.forced.gates.join(', ')}: ${r.forced.reason})` : outcome,
  );
  return `${lines.join('\n')}\n`;
}
