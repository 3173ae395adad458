import { kindName, MAX_UNMANAGED, type UnmanagedReport } from '../plan/unmanaged.js';
import { mdCodeCell, mdText } from './markdown.js';
import { textTable } from './text-table.js';

/** The `unmanaged` section of the DriftReport JSON (`groundwork.io/v1`, added fields). */
export interface UnmanagedJson {
  /** They count as drift (`extra`), as groundwork.yaml asks (`unmanaged.failOn`). */
  failOn: boolean;
  /** How many were found; `objects` lists at most `MAX_UNMANAGED` of them (`truncated`). */
  count: number;
  truncated?: boolean;
  /** How many of each kind in each namespace, of all found. */
  counts: { namespace: string; kind: string; count: number }[];
  objects: { id: string; namespace: string; kind: string; name: string }[];
  unread: { kind: string; namespace: string; reason: string }[];
}

export function unmanagedJson(u: UnmanagedReport): UnmanagedJson {
  return {
    failOn: u.failOn,
    count: u.total,
    ...(u.truncated ? { truncated: true } : {}),
    counts: u.counts.map((c) => ({ ...c })),
    objects: u.objects.map((o) => ({
      id: o.id,
      namespace: o.ref.namespace,
      kind: kindName(o.ref.group, o.ref.kind),
      name: o.ref.name,
    })),
    unread: u.unread.map((r) => ({ ...r })),
  };
}

/** What the objects are, and whether they count: one line. */
function headline(u: UnmanagedReport): string {
  const what = `${u.total} object(s) in managed namespaces that Groundwork did not apply`;
  return u.failOn
    ? `Unmanaged: ${what}; counted as drift (extra), as groundwork.yaml asks (unmanaged.failOn).`
    : `Unmanaged: ${what}; informational, never drift (groundwork.yaml unmanaged.failOn would make them so).`;
}

/** How many objects the table and the Markdown list by name; JSON lists up to `MAX_UNMANAGED`. */
export const UNMANAGED_ROWS = 50;

/** `… and 12 more: ...`, when the rows do not list them all. */
function more(u: UnmanagedReport): string[] {
  const rest = u.total - Math.min(u.objects.length, UNMANAGED_ROWS);
  return rest > 0 ? [`… and ${rest} more (--output json lists up to ${MAX_UNMANAGED} by name)`] : [];
}

/**
 * The section of the drift table: a headline, the counts per namespace and kind when more than
 * one, one row per object (at most `UNMANAGED_ROWS`), the lists not read.
 */
export function unmanagedLines(u: UnmanagedReport, width: number | undefined): string[] {
  const rows = u.objects
    .slice(0, UNMANAGED_ROWS)
    .map((o) => [o.ref.namespace, kindName(o.ref.group, o.ref.kind), o.ref.name]);
  const counts = u.counts.map((c) => [c.namespace, c.kind, String(c.count)]);
  return [
    headline(u),
    ...(counts.length > 1
      ? textTable([['NAMESPACE', 'KIND', 'COUNT'], ...counts], { width, shrink: [1, 0] })
      : []),
    ...(rows.length ? textTable([['NAMESPACE', 'KIND', 'NAME'], ...rows], { width, shrink: [1, 0, 2] }) : []),
    ...more(u),
    ...u.unread.map((r) => `not read: ${r.kind} in ${r.namespace}: ${oneLine(r.reason)}`),
  ];
}

/** The Markdown section: names, kinds and reasons come from the cluster, each through the builder. */
export function unmanagedMarkdown(u: UnmanagedReport): string[] {
  return [
    '',
    `#### ${mdText(headline(u))}`,
    ...(u.objects.length
      ? [
          '',
          '| namespace | kind | name |',
          '|---|---|---|',
          ...u.objects
            .slice(0, UNMANAGED_ROWS)
            .map(
              (o) =>
                `| ${mdCodeCell(o.ref.namespace)} | ${mdCodeCell(kindName(o.ref.group, o.ref.kind))} | ${mdCodeCell(o.ref.name)} |`,
            ),
        ]
      : []),
    ...more(u).map((m) => `\n${mdText(m)}`),
    ...u.unread.map((r) => `- not read: ${mdText(`${r.kind} in ${r.namespace}: ${oneLine(r.reason)}`)}`),
  ];
}

function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}
