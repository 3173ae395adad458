import { describeRef } from '../core/object-id.js';
import { mdCell, mdCode, mdCodeCell, mdText } from './markdown.js';
import { DELETION_PATH, type DriftItem } from '../plan/drift.js';
import { isManualManager } from '../plan/out-of-band.js';

/**
 * The drift report, a versioned document (`groundwork.io/v1` DriftReport; fields are only ever
 * added within v1). Secret values never appear: plan diffs carry redacted hashes.
 */
export interface DriftReportJson {
  apiVersion: 'groundwork.io/v1';
  kind: 'DriftReport';
  platform: string;
  overlay: string;
  revision?: string;
  generatedAt: string;
  summary: { drifted: number; missing: number; modified: number; extra: number };
  items: {
    id: string;
    object: string;
    type: DriftItem['type'];
    fields: { path: string; expected: unknown; actual: unknown; manager?: string }[];
  }[];
}

export class DriftReport {
  constructor(
    readonly platform: string,
    readonly overlay: string,
    readonly items: readonly DriftItem[],
    readonly revision?: string,
    readonly generatedAt: Date = new Date(),
  ) {}

  get drifted(): boolean {
    return this.items.length > 0;
  }

  get summary(): DriftReportJson['summary'] {
    const count = (t: DriftItem['type']) => this.items.filter((i) => i.type === t).length;
    return {
      drifted: this.items.length,
      missing: count('missing'),
      modified: count('modified'),
      extra: count('extra'),
    };
  }

  toJSON(): DriftReportJson {
    return {
      apiVersion: 'groundwork.io/v1',
      kind: 'DriftReport',
      platform: this.platform,
      overlay: this.overlay,
      ...(this.revision ? { revision: this.revision } : {}),
      generatedAt: this.generatedAt.toISOString(),
      summary: this.summary,
      items: this.items.map((i) => ({
        id: i.id,
        object: describeRef(i.ref),
        type: i.type,
        fields: i.fields,
      })),
    };
  }

  /** The table (`toTable`) at its default width. */
  toString(): string {
    return this.toTable();
  }

  /**
   * A table for terminals: one row per drifted field (or object), each line at most `width`
   * characters when the columns can shrink that far (each keeps at least 12); columns are cut
   * widest first, with `…`, only when the table does not fit.
   */
  toTable(opts: { /** Terminal columns. @default 120 */ width?: number } = {}): string {
    if (!this.drifted)
      return `No drift: ${this.platform}/${this.overlay} matches git${this.revision ? ` (${this.revision})` : ''}.`;
    const rows: string[][] = [
      ['TYPE', 'OBJECT', 'FIELD', 'EXPECTED (git)', 'ACTUAL (cluster)', 'CHANGED BY'],
    ];
    for (const i of this.items) {
      if (i.fields.length === 0) rows.push([i.type, describeRef(i.ref), '', '', '', '']);
      for (const f of i.fields)
        rows.push([i.type, describeRef(i.ref), f.path, show(f.expected), show(f.actual), f.manager ?? '']);
    }
    const widths = fitWidths(
      rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length))),
      opts.width ?? 120,
    );
    const s = this.summary;
    const hint = this.repairHint();
    return [
      `Drift in ${this.platform}/${this.overlay}: ${s.missing} missing, ${s.modified} modified, ${s.extra} extra`,
      ...rows.map((r) =>
        r
          .map((cell, c) => clip(cell, widths[c]!).padEnd(widths[c]!))
          .join('  ')
          .trimEnd(),
      ),
      ...(hint ? [hint] : []),
    ].join('\n');
  }

  /**
   * What `apply` does with the modified fields: fields a `kubectl` manager changed are restored by
   * `groundwork apply`; fields another manager (a controller) owns need `--force-conflicts`.
   * Undefined when no field is modified.
   */
  repairHint(): string | undefined {
    const fields = this.items.filter((i) => i.type === 'modified').flatMap((i) => i.fields);
    if (fields.some((f) => f.path === DELETION_PATH))
      return 'A Namespace git declares is being deleted: remove what holds it (above), then apply again.';
    if (fields.length === 0) return undefined;
    const others = fields.filter((f) => f.manager && !isManualManager(f.manager));
    return others.length === 0
      ? 'groundwork apply restores these fields (out-of-band edits of fields git owns).'
      : `groundwork apply restores fields changed with kubectl; ${others.length} field(s) owned by other managers (${[...new Set(others.map((f) => f.manager))].join(', ')}) need groundwork apply --force-conflicts.`;
  }

  toMarkdown(): string {
    const s = this.summary;
    // Names, paths, values and managers come from git and the cluster: each through the builder.
    if (!this.drifted) return `### ✅ No drift in ${mdCode(`${this.platform}/${this.overlay}`)}`;
    const out = [
      `### ⚠️ Drift in ${mdCode(`${this.platform}/${this.overlay}`)}${this.revision ? ` (git ${mdText(this.revision)})` : ''}`,
      '',
      `${s.missing} missing, ${s.modified} modified, ${s.extra} extra.`,
      '',
      '| type | object | field | expected (git) | actual (cluster) | changed by |',
      '|---|---|---|---|---|---|',
    ];
    for (const i of this.items) {
      const object = mdCodeCell(describeRef(i.ref));
      if (i.fields.length === 0) out.push(`| ${i.type} | ${object} | | | | |`);
      for (const f of i.fields)
        out.push(
          `| ${i.type} | ${object} | ${mdCodeCell(f.path)} | ${mdCodeCell(show(f.expected))} | ${mdCodeCell(show(f.actual))} | ${mdCell(f.manager ?? '')} |`,
        );
    }
    const hint = this.repairHint();
    if (hint) out.push('', hint);
    return out.join('\n');
  }
}

/** A value on one line: strings as they are unless they hold line breaks or tabs (then JSON-escaped). */
function show(v: unknown): string {
  if (v === undefined) return '∅';
  return typeof v === 'string' && !/[\n\r\t]/.test(v) ? v : JSON.stringify(v);
}

/** Column widths that fit `total` characters with two spaces between columns: the widest shrinks first. */
function fitWidths(natural: readonly number[], total: number): number[] {
  const widths = [...natural];
  const MIN = 12;
  const used = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (used() > total) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN) break;
    widths[widest] = Math.max(MIN, widths[widest]! - (used() - total));
  }
  return widths;
}

function clip(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}
