import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { dataPath } from '../core/data-dir.js';
import { InvalidUpdateGraphError, parseGraphJson } from './errors.js';
import type { Risk } from './graph.js';
import { isVersion } from './version.js';

/**
 * What OpenShift's public update service has published, as of a date: every channel's releases and
 * the blocked edges, from openshift/cincinnati-graph-data (`data/update-graphs/graph-data-snapshot.json`,
 * made by `scripts/graph-data-snapshot.mjs`, provenance in `data/PROVENANCE.md`). It holds **no
 * edges**: the update service computes those from release images, which are not in the data. So it
 * answers "was this release ever published, and in which channels" and "which updates into it does
 * the service drop or make conditional", never "which updates exist".
 */
export interface ReleaseSnapshot {
  /** Where the data comes from: `openshift/cincinnati-graph-data @ 731d0424 (2026-08-21)`. */
  readonly label: string;
  readonly commit: string;
  /** The commit's date, ISO 8601. */
  readonly date: string;
  /** Channel name → its releases (build metadata such as `+amd64` removed). */
  readonly channels: ReadonlyMap<string, readonly string[]>;
  readonly blockedEdges: readonly SnapshotBlockedEdge[];
}

/** A blocked-edges file: updates into `to` from releases matching `from` are dropped, or conditional on `risk`. */
export interface SnapshotBlockedEdge {
  /** The release (`4.3.29`). */
  readonly to: string;
  /** Only for this architecture, when graph-data names the release with build metadata (`4.3.29+s390x`). */
  readonly architecture?: string;
  /** Unanchored, matched against `<version>+<architecture>` as the update service does. */
  readonly from: RegExp;
  readonly risk?: Risk;
  readonly fixedIn?: string;
}

const schema = z.object({
  kind: z.literal('GraphDataSnapshot'),
  source: z.url(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  date: z.iso.datetime({ offset: true }),
  channels: z.record(z.string().min(1), z.array(z.string().min(1))),
  risks: z.record(
    z.string().min(1),
    z.object({
      url: z.string(),
      message: z.string(),
      matchingRules: z.array(z.object({ type: z.string() })),
    }),
  ),
  blockedEdges: z.array(
    z.object({
      to: z.string().refine(isVersion, 'not a SemVer version'),
      from: z.string().min(1),
      risk: z.string().optional(),
      fixedIn: z.string().optional(),
    }),
  ),
});

/** The snapshot Groundwork ships. */
export const SNAPSHOT_FILE = dataPath('update-graphs', 'graph-data-snapshot.json');

/**
 * Parses a snapshot (the JSON `scripts/graph-data-snapshot.mjs` writes). Throws `InvalidUpdateGraph`
 * naming `file` with every problem: bad JSON, schema, a blocked edge naming a risk the file does not
 * define, a `from` that is not a regular expression.
 */
export function parseReleaseSnapshot(content: string, file: string): ReleaseSnapshot {
  const data = parseGraphJson(content, file, schema);
  const problems: string[] = [];
  const blockedEdges = data.blockedEdges.flatMap((b, i): SnapshotBlockedEdge[] => {
    const known = b.risk === undefined ? undefined : data.risks[b.risk];
    if (b.risk !== undefined && !known) problems.push(`blockedEdges[${i}].risk: ${b.risk} is not in risks`);
    let from: RegExp;
    try {
      from = new RegExp(b.from);
    } catch (err) {
      problems.push(`blockedEdges[${i}].from: not a regular expression: ${(err as Error).message}`);
      return [];
    }
    const plus = b.to.indexOf('+');
    return [
      {
        to: withoutBuild(b.to),
        ...(plus >= 0 ? { architecture: b.to.slice(plus + 1) } : {}),
        from,
        ...(known ? { risk: { name: b.risk!, ...known } } : {}),
        ...(b.fixedIn ? { fixedIn: b.fixedIn } : {}),
      },
    ];
  });
  if (problems.length > 0) throw new InvalidUpdateGraphError(file, problems);
  return {
    label: `openshift/cincinnati-graph-data @ ${data.commit.slice(0, 8)} (${data.date.slice(0, 10)})`,
    commit: data.commit,
    date: data.date,
    channels: new Map(
      Object.entries(data.channels).map(([name, versions]) => [name, versions.map(withoutBuild)]),
    ),
    blockedEdges,
  };
}

let shipped: Promise<ReleaseSnapshot> | undefined;

/** The snapshot Groundwork ships (`SNAPSHOT_FILE`), read and parsed once per process. */
export function loadReleaseSnapshot(): Promise<ReleaseSnapshot> {
  shipped ??= readFile(SNAPSHOT_FILE, 'utf8').then((text) => parseReleaseSnapshot(text, SNAPSHOT_FILE));
  return shipped;
}

/**
 * The channels that list `version` (sorted); empty for a release the snapshot does not know. The
 * version is taken as written: OpenShift releases carry no build metadata, so `4.14.1+x` is unknown.
 */
export function channelsOf(snapshot: ReleaseSnapshot, version: string): string[] {
  const out: string[] = [];
  for (const [name, versions] of snapshot.channels) if (versions.includes(version)) out.push(name);
  return out.sort();
}

/**
 * The blocked-edge files that apply to an update `from` → `to` (architecture `amd64` unless given):
 * with a risk, the update is conditional on it; without, the update service drops it.
 */
export function blockedEdgesOf(
  snapshot: ReleaseSnapshot,
  from: string,
  to: string,
  architecture = 'amd64',
): SnapshotBlockedEdge[] {
  const target = withoutBuild(to);
  const source = `${withoutBuild(from)}+${architecture}`;
  return snapshot.blockedEdges.filter(
    (b) =>
      b.to === target &&
      (b.architecture === undefined || b.architecture === architecture) &&
      b.from.test(source),
  );
}

/** Graph-data names a release for one architecture with build metadata (`4.2.14+amd64`); the release is `4.2.14`. */
function withoutBuild(version: string): string {
  const plus = version.indexOf('+');
  return plus < 0 ? version : version.slice(0, plus);
}
