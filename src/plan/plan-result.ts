import { describeRef } from '../core/object-id.js';
import { pruneWeight } from './namespace-contents.js';
import { isSecretPath } from '../core/redact.js';
import { stageIndex } from '../core/stages.js';
import { PLAN_ACTIONS, type PlanAction, type PlanItem, type PruneRefusal } from './types.js';

interface PlanInit {
  platform: string;
  overlay: string;
  revision?: string;
  items: readonly PlanItem[];
  failedLists: readonly { apiVersion: string; kind: string; namespace: string; message: string }[];
  desiredCount: number;
  inventorySize: number | undefined;
}

/** Prune guard settings. */
export interface PruneGuardOptions {
  /** Largest share of the inventory one run may prune. @default 0.3 */
  maxPruneShare?: number;
  /** Allow pruning more than `maxPruneShare`. @default false */
  allowMassPrune?: boolean;
}

/**
 * A plan: one item per object, in apply order, with counts and renderings (text, Markdown, JSON).
 * A value: printing it, diffing it in tests and posting it to a PR all use the same data.
 */
export class Plan {
  readonly platform: string;
  readonly overlay: string;
  readonly revision: string | undefined;
  readonly items: readonly PlanItem[];
  readonly failedLists: PlanInit['failedLists'];
  readonly desiredCount: number;
  readonly inventorySize: number | undefined;

  constructor(init: PlanInit) {
    this.platform = init.platform;
    this.overlay = init.overlay;
    this.revision = init.revision;
    this.items = [...init.items].sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage));
    this.failedLists = init.failedLists;
    this.desiredCount = init.desiredCount;
    this.inventorySize = init.inventorySize;
  }

  /** The same plan with other items (put in apply order); every other field is kept. Pure. */
  withItems(items: readonly PlanItem[]): Plan {
    return new Plan({
      platform: this.platform,
      overlay: this.overlay,
      ...(this.revision ? { revision: this.revision } : {}),
      items,
      failedLists: this.failedLists,
      desiredCount: this.desiredCount,
      inventorySize: this.inventorySize,
    });
  }

  /** Items per action. */
  get counts(): Record<PlanAction, number> {
    const counts = Object.fromEntries(PLAN_ACTIONS.map((a) => [a, 0])) as Record<PlanAction, number>;
    for (const i of this.items) counts[i.action]++;
    return counts;
  }

  /** True when applying would write anything (create, update or prune). */
  get hasChanges(): boolean {
    return this.items.some(
      (i) => i.action === 'create' || i.action === 'update' || i.action === 'adopt' || i.action === 'prune',
    );
  }

  /** Items whose dry-run failed (conflicts, invalid values): the apply would fail on them. */
  get problems(): PlanItem[] {
    return this.items.filter((i) => i.problem);
  }

  /**
   * Whether pruning must be refused, and why. The guards: nothing desired (an empty synth is a
   * broken synth, never a request to delete everything), an incomplete observation (a failed list
   * cannot tell what exists), and more than `maxPruneShare` of the inventory at once. Renderings
   * show the refusal under the default guards.
   */
  pruneRefusal(opts: PruneGuardOptions = {}): PruneRefusal | undefined {
    // A Namespace's prune counts what goes with it: the guard weighs what is deleted, not what is asked.
    const prunes = pruneWeight(this.items.filter((i) => i.action === 'prune'));
    if (prunes === 0) return undefined;
    if (this.desiredCount === 0) {
      return {
        reason: 'NoDesiredObjects',
        message: `synth produced no objects; refusing to prune ${prunes} object(s)`,
      };
    }
    if (this.failedLists.length > 0) {
      const f = this.failedLists[0]!;
      return {
        reason: 'ObservationIncomplete',
        message: `listing ${f.kind} in ${f.namespace || 'all namespaces'} failed (${f.message}); refusing to prune`,
      };
    }
    const share = opts.maxPruneShare ?? 0.3;
    const size = this.inventorySize ?? 0;
    if (!opts.allowMassPrune && size > 0 && prunes / size > share) {
      return {
        reason: 'TooManyPrunes',
        message: `would prune ${prunes} of ${size} inventory objects (${Math.round((prunes / size) * 100)}% > ${Math.round(share * 100)}%); pass --allow-mass-prune if that is intended`,
      };
    }
    return undefined;
  }

  /** One line per changed object, its action aligned past the widest name, then the counts. */
  toString(): string {
    const lines = [
      `Plan for ${this.platform}/${this.overlay}${this.revision ? ` at ${this.revision}` : ''}:`,
    ];
    const shown = this.items.filter((x) => x.action !== 'unchanged');
    // Padded to the widest name shown (at least 60), never cut: the action column stays aligned
    // and every name can be copied whole.
    const width = Math.max(60, ...shown.map((i) => describeRef(i.ref).length));
    for (const i of shown) {
      lines.push(
        `  ${symbol(i.action)} ${describeRef(i.ref).padEnd(width)} ${i.action}${i.reason ? ` (${i.reason})` : ''}${i.problem ? ` ! ${i.problem.message}` : ''}`,
      );
      if (i.goesWith) lines.push(`      ${i.message ?? ''}`);
      for (const d of i.diff) lines.push(`      ${d.path}: ${show(d.before)} → ${show(d.after)}`);
    }
    const c = this.counts;
    lines.push(
      `${c.create} to create, ${c.update} to update, ${c.prune} to prune, ${c.skip} skipped, ${c.unchanged} unchanged${c.adopt ? `, ${c.adopt} to adopt` : ''}.`,
    );
    const refusal = this.pruneRefusal();
    if (refusal) lines.push(`Prune would be refused (${refusal.reason}): ${refusal.message}.`);
    return lines.join('\n');
  }

  toMarkdown(): string {
    const c = this.counts;
    const out = [
      `### Plan: \`${this.platform}/${this.overlay}\``,
      '',
      `| create | update | adopt | prune | skip | unchanged |`,
      '|---|---|---|---|---|---|',
      `| ${c.create} | ${c.update} | ${c.adopt} | ${c.prune} | ${c.skip} | ${c.unchanged} |`,
      '',
    ];
    const refusal = this.pruneRefusal();
    if (refusal) out.push(`> **Prune would be refused** (${refusal.reason}): ${refusal.message}.`, '');
    for (const i of this.items.filter((x) => x.action !== 'unchanged')) {
      out.push(
        `- **${i.action}** \`${describeRef(i.ref)}\`${i.reason ? ` (${i.reason})` : ''}${i.problem ? `: ${i.problem.message}` : ''}`,
      );
      if (i.diff.length) {
        out.push('  <details><summary>fields</summary>', '', '  ```diff');
        for (const d of i.diff) {
          const secret = i.desired ? isSecretPath(i.desired, d.path) : false;
          if (d.before !== undefined) out.push(`  - ${d.path}: ${secret ? '<redacted>' : show(d.before)}`);
          if (d.after !== undefined) out.push(`  + ${d.path}: ${secret ? '<redacted>' : show(d.after)}`);
        }
        out.push('  ```', '  </details>');
      }
    }
    return out.join('\n');
  }

  /** Versioned JSON (`groundwork.io/v1` Plan), without full object bodies. */
  toJSON(): object {
    return {
      apiVersion: 'groundwork.io/v1',
      kind: 'Plan',
      platform: this.platform,
      overlay: this.overlay,
      ...(this.revision ? { revision: this.revision } : {}),
      counts: this.counts,
      ...(this.pruneRefusal() ? { pruneRefusal: this.pruneRefusal() } : {}),
      items: this.items.map((i) => ({
        id: i.id,
        stage: i.stage,
        action: i.action,
        ...(i.reason ? { reason: i.reason } : {}),
        ...(i.message ? { message: i.message } : {}),
        ...(i.problem ? { problem: i.problem } : {}),
        ...(i.source ? { source: i.source } : {}),
        ...(i.diff.length ? { diff: i.diff } : {}),
      })),
    };
  }
}

function symbol(a: PlanAction): string {
  return { create: '+', update: '~', adopt: '&', prune: '-', skip: '!', unchanged: '=' }[a];
}

function show(v: unknown): string {
  if (v === undefined) return '∅';
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
