import type { CandidateReason } from './candidates.js';

/** Why a hop is taken: one of OLM's update edges, or the first install (`startingCSV`). */
type HopReason = CandidateReason | 'startingCSV';

/** One hop: one InstallPlan that installs `csv`, over `replaces` when it is an update. */
export interface Hop {
  readonly csv: string;
  readonly version: string;
  readonly via: readonly HopReason[];
  /** The CSV this hop updates; undefined for a fresh install. */
  readonly replaces: string | undefined;
  /** The version of `replaces`, when known. */
  readonly replacesVersion: string | undefined;
  /** The entry's skipRange, when `via` includes `skipRange`. */
  readonly skipRange?: string;
}

/**
 * Why a target cannot be reached, a closed vocabulary:
 * - `unknown-package`, `unknown-channel`: not in the catalog;
 * - `invalid-channel`: the channel graph has several heads or a cycle, OLM cannot resolve in it;
 * - `target-not-in-channel`: the target CSV is not an entry of the channel;
 * - `downgrade`: the target is older than the installed CSV; OLM never downgrades;
 * - `target-skipped`: the target is skipped by another entry (or off the replaces chain),
 *   so OLM never offers it as an update, only as a fresh install;
 * - `jumped-past`: OLM's preferred candidate (nearest the head) skips over the target;
 * - `no-update-edge`: OLM has no update from the installed CSV (or from a CSV on the way).
 */
export type UnreachableReason =
  | 'unknown-package'
  | 'unknown-channel'
  | 'invalid-channel'
  | 'target-not-in-channel'
  | 'downgrade'
  | 'target-skipped'
  | 'jumped-past'
  | 'no-update-edge';

/** What was asked: `from` undefined means a fresh install at `to` (the Subscription's startingCSV). */
export interface UpgradePathRequest {
  readonly package: string;
  readonly channel: string;
  readonly from: string | undefined;
  readonly to: string;
  /** Version of `from` when the catalog no longer has its bundle; needed to match skipRanges. */
  readonly fromVersion?: string;
}

/** A reachable target: the InstallPlans OLM will generate, in order. Empty `hops` when already there. */
export class UpgradePathFound {
  readonly ok = true as const;
  constructor(
    readonly request: UpgradePathRequest,
    readonly hops: readonly Hop[],
  ) {}

  /** `foo/beta: foo.v0.1.0 -> foo.v0.2.0 (replaces, skipRange) -> foo.v0.3.1 (replaces): 2 InstallPlans` */
  toString(): string {
    const { request: r, hops } = this;
    const steps = hops.map((h) => `${h.csv} (${h.via.join(', ')})`);
    const start = r.from ?? '(fresh install)';
    return `${r.package}/${r.channel}: ${[start, ...steps].join(' -> ')}: ${plans(hops.length)}`;
  }

  toMarkdown(): string {
    const { request: r, hops } = this;
    const title = `**${r.package}** channel \`${r.channel}\`: ${r.from ? `\`${r.from}\`` : 'fresh install'} → \`${r.to}\` in ${plans(hops.length)}`;
    if (hops.length === 0) return `${title}\n`;
    return `${title}\n\n${hopTable(hops)}`;
  }
}

/** An unreachable target, with the reason, a fix, and the path OLM would take instead. */
export class UpgradePathUnreachable {
  readonly ok = false as const;
  constructor(
    readonly request: UpgradePathRequest,
    readonly reason: UnreachableReason,
    readonly message: string,
    readonly fix: string | undefined,
    /** The hops OLM takes from `from` towards the head; empty when it has none or was not computed. */
    readonly olmPath: readonly Hop[] = [],
  ) {}

  toString(): string {
    const { request: r } = this;
    const fix = this.fix ? ` (fix: ${this.fix})` : '';
    return `${r.package}/${r.channel}: ${r.from ?? '(fresh install)'} cannot reach ${r.to} [${this.reason}]: ${this.message}${fix}`;
  }

  toMarkdown(): string {
    const { request: r } = this;
    const lines = [
      `**${r.package}** channel \`${r.channel}\`: ${r.from ? `\`${r.from}\`` : 'fresh install'} cannot reach \`${r.to}\` (\`${this.reason}\`)`,
      '',
      this.message,
    ];
    if (this.fix) lines.push('', `Fix: ${this.fix}`);
    if (this.olmPath.length > 0)
      lines.push('', 'OLM would take instead:', '', hopTable(this.olmPath).trimEnd());
    return `${lines.join('\n')}\n`;
  }
}

export type UpgradePathResult = UpgradePathFound | UpgradePathUnreachable;

/** Human words for a hop's reasons: `replaces foo.v1; skipRange <0.2.0 contains 0.1.0`. */
function explainHop(hop: Hop): string {
  return hop.via
    .map((v) => {
      if (v === 'startingCSV') return 'fresh install (startingCSV)';
      if (v === 'skipRange')
        return `skipRange \`${hop.skipRange ?? '?'}\` contains ${hop.replacesVersion ?? '?'}`;
      return `${v} \`${hop.replaces}\``;
    })
    .join('; ');
}

function hopTable(hops: readonly Hop[]): string {
  const rows = hops.map((h, i) => `| ${i + 1} | \`${h.csv}\` | ${h.version} | ${explainHop(h)} |`);
  return ['| # | CSV | version | candidate because |', '|---|---|---|---|', ...rows, ''].join('\n');
}

function plans(n: number): string {
  return n === 1 ? '1 InstallPlan' : `${n} InstallPlans`;
}
