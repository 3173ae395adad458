import { join } from 'node:path';
import { membersFromKubeconfig, observeFleet } from '../cluster/fleet-reader.js';
import { confineFleetKubeconfig } from '../cluster/kubeconfig-trust.js';
import { errorMessage } from '../core/errors.js';
import { loadFleetFile, type FleetMember } from '../project/fleet-file.js';
import { fleetView, type FleetView, type NextPromotion } from '../fleet/fleet-view.js';
import { commitOf, platformObservations, type ClusterObservation } from '../fleet/gates.js';
import { promote, type PromotionDeps, type PromotionGit, type RiskyChange } from '../fleet/promotion.js';
import type { GitAuth } from '../source/credentials.js';
import { commitsBehind, PromotionRepo } from '../source/promote.js';
import type { TrustedKeys } from '../source/trust/trusted-keys.js';
import type { Environment } from '../project/environments.js';
import { FLEET_FILE } from './fleet-flags.js';

/**
 * The clusters of the fleet: `--fleet FILE` (the user's own file, read bounded), else `fleet.yaml`
 * in the repository `dir` (a repository's file: confined to the checkout), else every context of
 * the kubeconfig. A missing, oversized or invalid fleet file is `InvalidFleetFile` (or
 * `FileTooLarge`, `NotARegularFile`, `PathOutsideCheckout`) naming the file, never quoting it.
 * A kubeconfig a fleet file names is made absolute and confined (`confineFleetKubeconfig`): never
 * inside the repository, and for the repository's own fleet.yaml only in the operator's kubeconfig
 * directories (`KubeconfigRefused`); its credential plugins are refused when it is loaded.
 */
export async function fleetMembers(
  flags: { readonly fleet?: string; readonly kubeconfig?: string },
  dir: string,
): Promise<FleetMember[]> {
  const confined = (members: FleetMember[], fleetFile: string) =>
    members.map((m) =>
      m.kubeconfig
        ? {
            ...m,
            kubeconfig: confineFleetKubeconfig(m.kubeconfig, {
              fleetFile,
              cluster: m.name,
              repoDir: dir,
              fromRepository: flags.fleet === undefined,
              ...(flags.kubeconfig ? { explicit: flags.kubeconfig } : {}),
            }),
          }
        : m,
    );
  if (flags.fleet !== undefined) return confined(await loadFleetFile({ file: flags.fleet }), flags.fleet);
  const own = await loadFleetFile({ root: dir, path: FLEET_FILE });
  if (own) return confined(own, FLEET_FILE);
  return membersFromKubeconfig(flags.kubeconfig);
}

/** Where the fleet is and how to read it: the same for `fleet status`, `promote` and the Fleet page. */
export interface FleetReadContext {
  readonly members: readonly FleetMember[];
  readonly timeoutMs: number;
  readonly kubeconfig?: string;
  /** `--repo`: else the repository the agents follow. */
  readonly repoUrl?: string;
  /** Git credentials, from the environment only (`credentialsFromEnv`). */
  readonly auth?: GitAuth;
}

/** Every member's PlatformSyncs (`observeFleet`: an unreachable cluster is an observation with an error). */
export function observeMembers(ctx: FleetReadContext): Promise<ClusterObservation[]> {
  return observeFleet(ctx.members, {
    timeoutMs: ctx.timeoutMs,
    ...(ctx.kubeconfig ? { kubeconfig: ctx.kubeconfig } : {}),
  });
}

/**
 * Commits behind each environment's ref, by `<ref>@<commit>` (`commitsBehind` over HTTP with the
 * credentials of `ctx`), for `platform`'s PlatformSyncs only (another platform's follow another
 * repository). A git failure is passed to `warn` (its message scrubbed of credentials) and leaves
 * the map empty: the rows then say `?`.
 */
export async function countBehind(
  ctx: FleetReadContext,
  platform: string,
  environments: readonly Environment[],
  observations: readonly ClusterObservation[],
  opts: { warn: (message: string) => void; repo?: PromotionRepo },
): Promise<Map<string, number>> {
  const wanted = platformObservations(observations, platform).flatMap((o) =>
    o.syncs.flatMap((s) => {
      const env = environments.find((e) => e.overlays.includes(s.overlay));
      const commit = commitOf(s.status?.lastAppliedRevision);
      return env && commit ? [{ branch: env.ref, commit, url: s.repository.url }] : [];
    }),
  );
  const url = ctx.repoUrl ?? wanted[0]?.url;
  if (!url) return new Map();
  return commitsBehind({
    url,
    ...(ctx.auth ? { auth: ctx.auth } : {}),
    wanted,
    ...(opts.repo ? { repo: opts.repo } : {}),
  }).catch((err: unknown) => {
    opts.warn(`cannot count commits behind: ${errorMessage(err)}`);
    return new Map<string, number>();
  });
}

/**
 * The git and risk dependencies of `promote` as the CLI wires them: the temporary promotion
 * repository (`PromotionRepo`, credentials as a header), and the PR preview's risk notes of the
 * platform at the path the source clusters' agents follow.
 */
export function promotionDeps(
  ctx: FleetReadContext,
  opts: {
    /** The platform promoted: its PlatformSyncs say the path (another platform's may say another). */
    platform: string;
    observe: () => Promise<ClusterObservation[]>;
    openGit?: (url: string) => Promise<PromotionGit>;
    riskyChanges?: PromotionDeps['riskyChanges'];
    now?: () => Date;
  },
): PromotionDeps {
  let platformPath = '.';
  return {
    observe: async () => {
      const observations = await opts.observe();
      platformPath =
        platformObservations(observations, opts.platform)
          .flatMap((o) => o.syncs)
          .find((s) => s.repository.path)?.repository.path ?? '.';
      return observations;
    },
    openGit: opts.openGit ?? ((url) => PromotionRepo.open({ url, ...(ctx.auth ? { auth: ctx.auth } : {}) })),
    riskyChanges: (repoDir, base, head, overlays) =>
      (opts.riskyChanges ?? riskyChanges)(join(repoDir, platformPath), base, head, overlays),
    now: opts.now ?? (() => new Date()),
  };
}

/** ClusterVersion and MachineConfig changes between two commits, per overlay, from the PR preview's risk notes. */
export async function riskyChanges(
  repoDir: string,
  base: string,
  head: string,
  overlays: readonly string[],
): Promise<RiskyChange[]> {
  const { previewRevisions } = await import('./actions/preview.js');
  const out: RiskyChange[] = [];
  for (const overlay of overlays) {
    const preview = await previewRevisions({ repoDir, base, head, overlay });
    if (preview.status === 'head-failed') {
      out.push({
        code: 'ClusterVersionUnknown',
        subject: `overlay ${overlay}`,
        message: 'head does not synthesize',
      });
      continue;
    }
    for (const o of preview.overlays)
      for (const r of o.risks)
        out.push({ code: r.code, subject: `${r.subject} [${overlay}]`, message: r.message });
  }
  return out;
}

/**
 * Reads the whole fleet for the Fleet page, again and again: one persistent promotion repository
 * per URL (each read fetches only what is new), the risk notes of a commit pair computed once
 * (commits do not change), and for every environment with `promotedFrom` the same `promote` that
 * `promote --dry-run` runs, over the observations of this read. It never pushes: its git refuses
 * to. `close` removes the repositories.
 */
export class FleetViewReader {
  private readonly repos = new Map<string, Promise<PromotionRepo>>();
  private readonly risks = new Map<string, Promise<RiskyChange[]>>();

  constructor(
    private readonly ctx: FleetReadContext,
    private readonly config: {
      readonly platform: string;
      readonly environments: readonly Environment[];
      readonly trustedKeys?: TrustedKeys;
    },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** One read: clusters, commits behind, and the gates of each promotion. Never rejects for one cluster or one git failure. */
  async read(): Promise<FleetView> {
    const now = this.clock();
    const { platform, environments } = this.config;
    const observations = await observeMembers(this.ctx);
    const problems: string[] = [];
    const repoOf = async (url: string) => this.repo(url);
    const behindUrl =
      this.ctx.repoUrl ??
      platformObservations(observations, platform).flatMap((o) => o.syncs)[0]?.repository.url;
    const behind = behindUrl
      ? await countBehind(this.ctx, platform, environments, observations, {
          warn: (m) => problems.push(m),
          repo: await repoOf(behindUrl).catch(() => undefined),
        })
      : new Map<string, number>();
    const promotions = new Map<string, NextPromotion>();
    for (const env of environments.filter((e) => e.promotedFrom !== undefined)) {
      const deps = promotionDeps(this.ctx, {
        platform,
        observe: async () => observations,
        openGit: async (url) => readOnly(await repoOf(url)),
        riskyChanges: (dir, base, head, overlays) => this.riskyOnce(dir, base, head, overlays),
        now: () => now,
      });
      try {
        const result = await promote(
          {
            platform,
            environments,
            target: env.name,
            ...(this.ctx.repoUrl ? { repoUrl: this.ctx.repoUrl } : {}),
            dryRun: true,
            ...(this.config.trustedKeys ? { trustedKeys: this.config.trustedKeys } : {}),
          },
          deps,
        );
        promotions.set(env.name, { result });
      } catch (err) {
        promotions.set(env.name, { error: errorMessage(err) });
      }
    }
    return fleetView({ platform, environments, observations, behind, promotions, problems, now });
  }

  async close(): Promise<void> {
    const repos = [...this.repos.values()];
    this.repos.clear();
    for (const r of repos) await (await r.catch(() => undefined))?.dispose();
  }

  private repo(url: string): Promise<PromotionRepo> {
    let repo = this.repos.get(url);
    if (!repo) {
      repo = PromotionRepo.open({ url, ...(this.ctx.auth ? { auth: this.ctx.auth } : {}) });
      this.repos.set(url, repo);
      repo.catch(() => this.repos.delete(url));
    }
    return repo;
  }

  private riskyOnce(dir: string, base: string, head: string, overlays: readonly string[]) {
    const key = `${dir}\n${base}\n${head}\n${overlays.join(',')}`;
    let found = this.risks.get(key);
    if (!found) {
      if (this.risks.size >= 64) this.risks.clear();
      found = riskyChanges(dir, base, head, overlays);
      this.risks.set(key, found);
      // A failure (a synth that crashed) is not remembered: the next read tries again.
      found.catch(() => this.risks.delete(key));
    }
    return found;
  }
}

/** A promotion repository that is kept open (dispose does nothing) and refuses to push. */
function readOnly(repo: PromotionRepo): PromotionGit {
  return {
    dir: repo.dir,
    fetchBranch: (b) => repo.fetchBranch(b),
    contains: (h, c) => repo.contains(h, c),
    stateOf: (c, h) => repo.stateOf(c, h),
    verify: (c, k) => repo.verify(c, k),
    push: () => Promise.reject(new Error('the dashboard is read-only: it never pushes')),
    dispose: async () => undefined,
  };
}
