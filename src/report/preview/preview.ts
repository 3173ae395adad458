import type { SynthResult } from '../../render/synth/synthesize.js';
import type { UpdateGraph } from '../../cluster-version/graph.js';
import type { ReleaseSnapshot } from '../../cluster-version/release-snapshot.js';
import { previewOverlay, type OverlayPreview } from './overlay-preview.js';
import { compareRiskNotes, countBySeverity, type RiskSeverity } from './risk-note.js';
import { synthFailureOf, type SynthFailure } from './synth-failure.js';
import type { OtherOverlays } from './other-overlays.js';

/** A revision as the preview names it: what the user asked for and the commit it resolved to. */
export interface PreviewRevision {
  /** As given: `origin/main`, `HEAD`, a sha. */
  ref: string;
  /** Full commit id. */
  oid?: string;
}

/** One side of the comparison: its synth results, or why synth failed (a thrown error or a `SynthFailure`). */
export type SynthOutcome = readonly SynthResult[] | SynthFailure | Error;

/** Which environments a change merged into `branch` reaches: at once, and only by promotion. */
interface PreviewReach {
  branch: string;
  now: string[];
  byPromotion: string[];
}

interface PreviewInput {
  base: SynthOutcome;
  head: SynthOutcome;
  baseRevision?: PreviewRevision;
  headRevision?: PreviewRevision;
  reach?: PreviewReach;
  /** Head's update graphs (groundwork.yaml `graphs:`), merged: the ClusterVersion path notes walk them. */
  graph?: UpdateGraph;
  /** The graph-data snapshot Groundwork ships: an unknown target version is a blocker. Absent: not checked. */
  snapshot?: ReleaseSnapshot;
  /** With one overlay previewed: whether the change reaches the others too (`otherOverlayChanges`). */
  otherOverlays?: OtherOverlays;
}

/**
 * `ok`: head synthesizes, overlays compared (against an empty base when base failed);
 * `head-failed`: head does not synthesize, and the preview is only that failure.
 */
type PreviewStatus = 'ok' | 'head-failed';

/** The preview as data: the frozen JSON format (`groundwork.io/v1`, `Preview`). */
export interface PreviewData {
  apiVersion: 'groundwork.io/v1';
  kind: 'Preview';
  status: PreviewStatus;
  base: { revision?: PreviewRevision; failure?: SynthFailure };
  head: { revision?: PreviewRevision; failure?: SynthFailure };
  /** Risk notes per severity, over every overlay. */
  risks: Record<RiskSeverity, number>;
  /** In overlay name order; empty when head failed. */
  overlays: OverlayPreview[];
  /** When groundwork.yaml declares environments and base is a branch: where the change goes once merged. */
  reach?: PreviewReach;
  /** With one overlay previewed: the other overlays the change also reaches, or why that is not known. */
  otherOverlays?: OtherOverlays;
}

/**
 * Builds the PR preview from both revisions' synth outcomes, per overlay (in the union of both
 * sides' overlays, by name). When head failed, the preview holds only that failure, with every
 * validation issue; when base failed, every head object counts as added and `base.failure` says why.
 * Pure: no git, no synth, no clock. The result is plain data (`JSON.stringify` writes the versioned
 * document); `previewMarkdown` renders it for a pull request, `previewText` for terminals.
 *
 * @example
 * const preview = buildPreview({ base: await renderPlatform(...), head: err });
 * process.stdout.write(previewMarkdown(preview));
 */
export function buildPreview(input: PreviewInput): PreviewData {
  const base = outcome(input.base);
  const head = outcome(input.head);
  const data: PreviewData = {
    apiVersion: 'groundwork.io/v1',
    kind: 'Preview',
    status: head.failure ? 'head-failed' : 'ok',
    base: {
      ...(input.baseRevision ? { revision: input.baseRevision } : {}),
      ...(base.failure ? { failure: base.failure } : {}),
    },
    head: {
      ...(input.headRevision ? { revision: input.headRevision } : {}),
      ...(head.failure ? { failure: head.failure } : {}),
    },
    risks: countBySeverity([]),
    overlays: [],
    ...(input.reach ? { reach: input.reach } : {}),
    ...(input.otherOverlays && !head.failure ? { otherOverlays: input.otherOverlays } : {}),
  };
  if (head.results) {
    const baseByName = new Map((base.results ?? []).map((r) => [r.overlay, r]));
    const headByName = new Map(head.results.map((r) => [r.overlay, r]));
    // A failed base is an empty base for every head overlay (not a removed one for its own).
    const names = [...new Set([...headByName.keys(), ...(base.results ? baseByName.keys() : [])])].sort();
    data.overlays = names.map((name) =>
      previewOverlay(
        name,
        base.failure ? emptyLike(headByName.get(name)!) : baseByName.get(name),
        headByName.get(name),
        {
          ...(input.graph ? { graph: input.graph } : {}),
          ...(input.snapshot ? { snapshot: input.snapshot } : {}),
        },
      ),
    );
    data.risks = countBySeverity(data.overlays.flatMap((o) => o.risks).sort(compareRiskNotes));
  }
  return data;
}

function outcome(o: SynthOutcome): { results?: readonly SynthResult[]; failure?: SynthFailure } {
  if (Array.isArray(o)) return { results: o as readonly SynthResult[] };
  if (o instanceof Error) return { failure: synthFailureOf(o) };
  return { failure: o as SynthFailure };
}

function emptyLike(head: SynthResult): SynthResult {
  return { platform: head.platform, overlay: head.overlay, manifests: [], hash: '', warnings: [] };
}
