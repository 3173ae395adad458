import semver from 'semver';
import { z } from 'zod';
import { GroundworkError } from '../../core/errors.js';

/**
 * The CVO simulator's own update service: Cincinnati graph responses (the update service's
 * `/api/upgrades_info/v1/graph` JSON, as the CVO's `pkg/cincinnati` client reads them), merged and
 * indexed. Written from the Cincinnati API and the CVO client, not from Groundwork's graph model,
 * which it checks.
 */

/** The metadata key listing the channels a release is in, comma-separated. */
export const CHANNELS_KEY = 'io.openshift.upgrades.graph.release.channels';
/** The metadata key with the release's errata URL. */
const URL_KEY = 'url';

interface CincinnatiNode {
  readonly version: string;
  readonly payload: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface CincinnatiRisk {
  readonly name: string;
  readonly url: string;
  readonly message: string;
  readonly matchingRules: readonly { readonly type: string }[];
}

/** One Cincinnati graph response. */
export interface CincinnatiGraph {
  readonly nodes: readonly CincinnatiNode[];
  /** Pairs of node indexes, from → to. */
  readonly edges: readonly (readonly [number, number])[];
  readonly conditionalEdges?: readonly {
    readonly edges: readonly { readonly from: string; readonly to: string }[];
    readonly risks: readonly CincinnatiRisk[];
  }[];
}

/** A release as the update service serves it. */
export interface ServedRelease {
  readonly version: string;
  readonly payload: string;
  /** From the channels metadata, sorted. */
  readonly channels: readonly string[];
  readonly url: string | undefined;
}

/** An update edge; `risks` is empty for an unconditional one. */
interface ServedUpdate {
  readonly to: ServedRelease;
  readonly risks: readonly CincinnatiRisk[];
}

const responseSchema = z.object({
  nodes: z.array(
    z.object({
      version: z.string().min(1),
      payload: z.string().min(1),
      metadata: z.record(z.string(), z.string()).optional(),
    }),
  ),
  edges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  conditionalEdges: z
    .array(
      z.object({
        edges: z.array(z.object({ from: z.string(), to: z.string() })),
        risks: z.array(
          z.object({
            name: z.string(),
            url: z.string(),
            message: z.string(),
            matchingRules: z.array(z.looseObject({ type: z.string() })),
          }),
        ),
      }),
    )
    .optional(),
});

/** A Cincinnati response the simulator cannot read. */
export class CincinnatiResponseInvalidError extends GroundworkError {
  constructor(subject: string, problems: readonly string[]) {
    super({
      code: 'CincinnatiResponseInvalid',
      subject,
      message: problems.join('; '),
      fix: 'give the simulator an update-service response: {"nodes": [...], "edges": [[from, to], ...]}',
    });
  }
}

/** Parses a Cincinnati graph response; node indexes must be in range. */
export function parseCincinnati(text: string, subject: string): CincinnatiGraph {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CincinnatiResponseInvalidError(subject, [`not JSON: ${(err as Error).message}`]);
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    throw new CincinnatiResponseInvalidError(
      subject,
      parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`),
    );
  }
  const n = parsed.data.nodes.length;
  const bad = parsed.data.edges.filter(([a, b]) => a >= n || b >= n);
  if (bad.length > 0) {
    throw new CincinnatiResponseInvalidError(
      subject,
      bad.map(([a, b]) => `edge [${a}, ${b}] names a node index past ${n - 1}`),
    );
  }
  return parsed.data;
}

/**
 * What the simulated update service knows: the union of several responses (e.g. one per channel
 * file of the fixtures). The same version in two responses keeps the first payload and the union
 * of the channels. An edge listed both unconditionally and conditionally is conditional, as the
 * CVO prefers the conditional update when the service lists both; risks of several conditional
 * groups on one edge add up.
 *
 * @example
 * const service = UpdateService.from(parseCincinnati(text, 'stable-4.8.json'));
 * service.updatesFrom('4.7.0').map((u) => u.to.version);
 */
export class UpdateService {
  private constructor(
    private readonly byVersion: ReadonlyMap<string, ServedRelease>,
    private readonly out: ReadonlyMap<string, ReadonlyMap<string, CincinnatiRisk[]>>,
  ) {}

  static from(...responses: readonly CincinnatiGraph[]): UpdateService {
    const releases = new Map<string, { payload: string; channels: Set<string>; url?: string }>();
    const out = new Map<string, Map<string, CincinnatiRisk[]>>();
    const edge = (from: string, to: string) => {
      const targets = out.get(from) ?? new Map<string, CincinnatiRisk[]>();
      out.set(from, targets);
      const risks = targets.get(to) ?? [];
      targets.set(to, risks);
      return risks;
    };
    for (const r of responses) {
      for (const node of r.nodes) {
        const seen = releases.get(node.version) ?? { payload: node.payload, channels: new Set<string>() };
        releases.set(node.version, seen);
        for (const c of (node.metadata?.[CHANNELS_KEY] ?? '').split(','))
          if (c.trim()) seen.channels.add(c.trim());
        const url = node.metadata?.[URL_KEY];
        if (url && !seen.url) seen.url = url;
      }
      for (const [a, b] of r.edges) edge(r.nodes[a]!.version, r.nodes[b]!.version);
      for (const group of r.conditionalEdges ?? []) {
        for (const e of group.edges) {
          const risks = edge(e.from, e.to);
          for (const risk of group.risks) if (!risks.some((x) => x.name === risk.name)) risks.push(risk);
        }
      }
    }
    const byVersion = new Map(
      [...releases].map(([version, r]): [string, ServedRelease] => [
        version,
        { version, payload: r.payload, channels: [...r.channels].sort(), url: r.url },
      ]),
    );
    return new UpdateService(byVersion, out);
  }

  release(version: string): ServedRelease | undefined {
    return this.byVersion.get(version);
  }

  /** The release whose payload has the image's digest (mirrors pull the same digest). */
  releaseByImage(image: string): ServedRelease | undefined {
    return [...this.byVersion.values()].find((r) => sameDigest(r.payload, image));
  }

  /** Every release, oldest first. */
  releases(): ServedRelease[] {
    return [...this.byVersion.values()].sort((a, b) => compareReleases(a.version, b.version));
  }

  /** The updates from `version` to releases the service knows. */
  updatesFrom(version: string): ServedUpdate[] {
    return [...(this.out.get(version) ?? [])].flatMap(([to, risks]) => {
      const release = this.byVersion.get(to);
      return release ? [{ to: release, risks }] : [];
    });
  }
}

/** Orders release versions as semver does; unparsable ones sort first, by string. */
export function compareReleases(a: string, b: string): number {
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.compare(va, vb);
  if (!va && !vb) return a.localeCompare(b);
  return va ? 1 : -1;
}

/** Whether two release pullspecs name the same digest (`…@sha256:X`), or are equal. */
export function sameDigest(a: string, b: string): boolean {
  const digest = (s: string) => (s.includes('@') ? s.slice(s.lastIndexOf('@') + 1) : s);
  return digest(a) === digest(b);
}
