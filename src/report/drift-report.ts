import { describeRef } from '../core/object-id.js';
import { mdCell, mdCode, mdCodeCell, mdText } from './markdown.js';
import { DELETION_PATH, type DriftItem } from '../plan/drift.js';
import { isManualManager } from '../plan/out-of-band.js';
import type { UnmanagedReport } from '../plan/unmanaged.js';
import { textTable } from './text-table.js';
import { unmanagedJson, unmanagedLines, unmanagedMarkdown, type UnmanagedJson } from './unmanaged-report.js';

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
  /** `unmanaged`: how many objects the unmanaged report found (only when groundwork.yaml or `--unmanaged` asks). */
  summary: { drifted: number; missing: number; modified: number; extra: number; unmanaged?: number };
  /** Objects in managed namespaces Groundwork did not apply (only when asked). */
  unmanaged?: UnmanagedJson;
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
    /** The unmanaged-objects report, when asked for (`withUnmanaged`). */
    readonly unmanaged?: UnmanagedReport,
  ) {}

  /** This report with the unmanaged-objects report (undefined: none asked for). */
  withUnmanaged(unmanaged: UnmanagedReport | undefined): DriftReport {
    return new DriftReport(
      this.platform,
      this.overlay,
      this.items,
      this.revision,
      this.generatedAt,
      unmanaged,
    );
  }

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
      ...(this.unmanaged ? { unmanaged: this.unmanaged.objects.length } : {}),
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
      ...(this.unmanaged ? { unmanaged: unmanagedJson(this.unmanaged) } : {}),
      items: this.items.map((i) => ({
        id: i.id,
        object: describeRef(i.ref),
        type: i.type,
        fields: i.fields,
      })),
    };
  }

  /** The table (`toTable`), never cut. */
  toString(): string {
    return this.toTable();
  }

  /**
   * A table: one row per drifted field (or object), then the unmanaged objects when reported.
   * Without `width` (a pipe, a CI log) nothing is cut; with a terminal's width, cells are cut with
   * `…` only when the table is wider: values first, then managers, fields and objects.
   */
  toTable(opts: { /** Terminal columns; undefined: never cut. */ width?: number } = {}): string {
    const unmanaged = this.unmanaged ? ['', ...unmanagedLines(this.unmanaged, opts.width)] : [];
    if (!this.drifted)
      return [
        `No drift: ${this.platform}/${this.overlay} matches git${this.revision ? ` (${this.revision})` : ''}.`,
        ...unmanaged,
      ].join('\n');
    const rows: string[][] = [
      ['TYPE', 'OBJECT', 'FIELD', 'EXPECTED (git)', 'ACTUAL (cluster)', 'CHANGED BY'],
    ];
    for (const i of this.items) {
      if (i.fields.length === 0) rows.push([i.type, describeRef(i.ref), '', '', '', '']);
      for (const f of i.fields)
        rows.push([i.type, describeRef(i.ref), f.path, show(f.expected), show(f.actual), f.manager ?? '']);
    }
    const s = this.summary;
    const hint = this.repairHint();
    return [
      `Drift in ${this.platform}/${this.overlay}: ${s.missing} missing, ${s.modified} modified, ${s.extra} extra`,
      ...textTable(rows, { ...(opts.width ? { width: opts.width } : {}), shrink: [3, 4, 5, 2, 1] }),
      ...(hint ? [hint] : []),
      ...unmanaged,
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
    const unmanaged = this.unmanaged ? unmanagedMarkdown(this.unmanaged) : [];
    if (!this.drifted)
      return [`### ✅ No drift in ${mdCode(`${this.platform}/${this.overlay}`)}`, ...unmanaged].join('\n');
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
    return [...out, ...unmanaged].join('\n');
  }
}

/** A value on one line: strings as they are unless they hold line breaks or tabs (then JSON-escaped). */
function show(v: unknown): string {
  if (v === undefined) return '∅';
  return typeof v === 'string' && !/[\n\r\t]/.test(v) ? v : JSON.stringify(v);
}
