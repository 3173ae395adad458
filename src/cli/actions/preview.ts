import { POST_SYNTH_CHECKS } from '../../reconcile/domains.js';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  otherOverlayChanges,
  type OtherOverlays,
  buildPreview,
  synthFailureOf,
  type PreviewData,
  type SynthFailure,
  type SynthOutcome,
} from '../../report/preview/index.js';
import { exportRevision } from '../../source/read-revision.js';
import { mergeGraphs, type UpdateGraph } from '../../cluster-version/graph.js';
import { loadGraphFile } from '../../cluster-version/graph-file.js';
import { loadReleaseSnapshot } from '../../cluster-version/release-snapshot.js';
import { renderPlatform } from '../../render/render-platform.js';
import { loadProjectConfig } from '../../project/config.js';
import { reach } from '../../project/environments.js';
import { GroundworkError, hasCode } from '../../core/errors.js';
import type { SetExitCode } from '../commands/command-module.js';
import { printPreview } from './print-preview.js';
import type { FailOn } from '../../report/preview/gate.js';

export interface PreviewRevisionsOptions {
  /** A directory in the git repository: the platform repository root (holds groundwork.yaml). */
  repoDir: string;
  base: string;
  head: string;
  /** One overlay, every overlay, or (undefined) head's `defaultOverlay`. */
  overlay?: string | { all: true };
  /** Per synth child. @default 60_000 */
  timeoutMs?: number;
  /** Render even where the renderer cannot be isolated (`--trust-repository`). @default false */
  trustRepository?: boolean;
  /**
   * Where both revisions' libraries (`node_modules`) come from. @default `[repoDir]` (the working
   * tree, after `npm ci`); `groundwork propose` previews in a temporary clone and passes the checkout.
   */
  libraryRoots?: readonly string[];
}

/**
 * Exports both revisions' trees into a temporary directory (never touching the checkout), renders
 * each in a renderer of its own (`renderPlatform`; base in trust domain `preview-base`, head in
 * `preview-head`, so nothing the pull request's render leaves in its caches is read by another
 * render), builds the preview and removes the temporary directory. A revision that fails synth is
 * part of the preview, not an error; a revision that cannot be read is (`RevisionNotFound`,
 * `MissingObject`, ...), and so is a machine that cannot isolate the renderer
 * (`RenderIsolationUnavailable`). Temporary paths never reach the preview: failure messages name
 * files relative to the repository.
 */
export async function previewRevisions(opts: PreviewRevisionsOptions): Promise<PreviewData> {
  const tmp = await realpath(await mkdtemp(join(tmpdir(), 'groundwork-preview-')));
  try {
    // allSettled: neither export may still be writing when `finally` removes the directory.
    const [base, head] = settled(
      await Promise.allSettled([
        exportRevision({ repoDir: opts.repoDir, ref: opts.base, dest: join(tmp, 'base') }),
        exportRevision({ repoDir: opts.repoDir, ref: opts.head, dest: join(tmp, 'head') }),
      ]),
    );
    // Head's groundwork.yaml, read once: its default overlay and its environments. An unreadable
    // config is head's synth failure.
    const config = await loadProjectConfig(head.dir).catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    const overlay = opts.overlay ?? (config instanceof Error ? config : config.defaultOverlay);
    const synth = async (dir: string, treeRoot: string, side: Side): Promise<SynthOutcome> => {
      if (overlay instanceof Error) return synthFailureOf(overlay, { hidePaths: [dir, tmp] });
      try {
        return await renderPlatform(dir, {
          checks: POST_SYNTH_CHECKS,
          domain: DOMAIN[side],
          treeRoot,
          overlay,
          // The working tree's node_modules (`npm ci` before `groundwork preview`): both revisions'
          // libraries come from it, as the exported trees have none.
          libraryRoots: opts.libraryRoots ?? [opts.repoDir],
          ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
          ...(opts.trustRepository ? { trustRepository: true } : {}),
        });
      } catch (err) {
        if (hasCode(err, 'RenderIsolationUnavailable')) throw err;
        return synthFailureOf(err, { hidePaths: [dir, tmp] });
      }
    };
    const [baseOutcome, headOutcome] = await Promise.all([
      synth(base.dir, join(tmp, 'base'), 'base'),
      synth(head.dir, join(tmp, 'head'), 'head'),
    ]);
    // One overlay previewed: every overlay of both revisions too, to say which others change.
    const others =
      typeof overlay === 'string' && Array.isArray(headOutcome)
        ? await otherOverlays({
            overlay,
            base: { dir: base.dir, treeRoot: join(tmp, 'base') },
            head: { dir: head.dir, treeRoot: join(tmp, 'head') },
            libraryRoots: opts.libraryRoots ?? [opts.repoDir],
            ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
            ...(opts.trustRepository ? { trustRepository: true } : {}),
          })
        : undefined;
    // Head's update graphs, read as the agent reads them: one it cannot read is head's failure,
    // since the agent could not reconcile that revision either.
    const graphs =
      config instanceof Error
        ? {}
        : await headGraph({ dir: head.dir, paths: config.graphs, hide: [head.dir, tmp] });
    const environments = config instanceof Error ? [] : (config.environments ?? []);
    const branch = branchName(opts.base);
    const reached = environments.length > 0 && branch ? reach(environments, branch) : undefined;
    return buildPreview({
      ...(reached && branch
        ? {
            reach: {
              branch,
              now: reached.now.map((e) => e.name),
              byPromotion: reached.byPromotion.map((e) => e.name),
            },
          }
        : {}),
      base: baseOutcome,
      head: graphs.failure ?? headOutcome,
      ...(graphs.graph ? { graph: graphs.graph } : {}),
      // Groundwork's own data, not the repository's: which releases exist (an unknown target blocks).
      snapshot: await loadReleaseSnapshot(),
      ...(others ? { otherOverlays: others } : {}),
      baseRevision: { ref: opts.base, oid: base.oid },
      headRevision: { ref: opts.head, oid: head.oid },
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

type Side = 'base' | 'head';

/** Each side's renders in a trust domain of its own: head is the pull request's. */
const DOMAIN = { base: 'preview-base', head: 'preview-head' } as const;

/**
 * Synthesizes every overlay of both revisions (one child each, in turn: the previewed overlay's
 * children have run) and compares the others' manifests (`otherOverlayChanges`). A revision that
 * fails synth of some overlay makes the answer unknown, named, without its error (the previewed
 * overlay's own failure is in the preview already).
 */
async function otherOverlays(opts: {
  overlay: string;
  base: { dir: string; treeRoot: string };
  head: { dir: string; treeRoot: string };
  /** As for the previewed overlay: the working tree's node_modules. */
  libraryRoots: readonly string[];
  timeoutMs?: number;
  trustRepository?: boolean;
}): Promise<OtherOverlays> {
  const every = async (side: Side) => {
    try {
      return await renderPlatform(opts[side].dir, {
        checks: POST_SYNTH_CHECKS,
        domain: DOMAIN[side],
        treeRoot: opts[side].treeRoot,
        overlay: { all: true },
        libraryRoots: opts.libraryRoots,
        ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
        ...(opts.trustRepository ? { trustRepository: true } : {}),
      });
    } catch (err) {
      const code = err instanceof GroundworkError ? err.code : 'SynthFailed';
      return `${side} fails synth of an overlay (${code}): preview with --all-overlays to see which`;
    }
  };
  const base = await every('base');
  if (typeof base === 'string') return { unknown: base };
  const head = await every('head');
  if (typeof head === 'string') return { unknown: head };
  return otherOverlayChanges(base, head, opts.overlay);
}

/**
 * The graph files `paths` (groundwork.yaml `graphs:`) of the tree at `dir`, each confined to it
 * and bounded (`loadGraphFile`), merged as the agent merges them; or the failure, paths hidden.
 */
async function headGraph(opts: {
  dir: string;
  paths: readonly string[];
  hide: string[];
}): Promise<{ graph?: UpdateGraph; failure?: SynthFailure }> {
  if (opts.paths.length === 0) return {};
  try {
    const files = await Promise.all(opts.paths.map((path) => loadGraphFile({ root: opts.dir, path })));
    return { graph: mergeGraphs(files) };
  } catch (err) {
    return { failure: synthFailureOf(err, { hidePaths: opts.hide }) };
  }
}

/** The branch a ref names (`origin/main`, `refs/heads/main`, `main`); undefined for a commit id or `HEAD`. */
function branchName(ref: string): string | undefined {
  if (/^[0-9a-f]{7,40}$/i.test(ref) || /^HEAD([~^]|$)/.test(ref) || /[~^]/.test(ref)) return undefined;
  return ref
    .replace(/^refs\/heads\//, '')
    .replace(/^refs\/remotes\/[^/]+\//, '')
    .replace(/^origin\//, '');
}

function settled<T>(results: [PromiseSettledResult<T>, PromiseSettledResult<T>]): [T, T] {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return [(results[0] as PromiseFulfilledResult<T>).value, (results[1] as PromiseFulfilledResult<T>).value];
}

export interface PreviewFlags {
  base: string;
  head: string;
  dir: string;
  overlay?: string;
  allOverlays?: boolean;
  output?: string;
  format?: string;
  failOn?: FailOn;
  trustRepository?: boolean;
}

/** `groundwork preview`: the preview of `--base..--head`, printed; exit 1 when `--fail-on` finds what it names. */
export async function runPreview(flags: PreviewFlags, setExitCode: SetExitCode): Promise<void> {
  const preview = await previewRevisions({
    repoDir: resolve(flags.dir),
    base: flags.base,
    head: flags.head,
    ...(flags.trustRepository ? { trustRepository: true } : {}),
    ...(flags.allOverlays
      ? { overlay: { all: true } as const }
      : flags.overlay
        ? { overlay: flags.overlay }
        : {}),
  });
  printPreview(preview, flags, setExitCode);
}
