import { cpSync, mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { renderPlatform } from '../render/render-platform.js';
import { SynthValidationError } from '../render/synth/validation.js';
import type { ProposalEdit } from './proposal.js';
import { isSafeEditPath } from './safe-text.js';

/** The chart version a check renders, with the edits that move the pin to it. */
export interface ChartRenderKey {
  readonly repo: string;
  readonly name: string;
  readonly version: string;
  /** The proposal's whole-file edits (the lock entry and the pin), repository-relative. */
  readonly edits: readonly ProposalEdit[];
}

/** Where and how `chartRenderCheck` renders. */
export interface ChartRenderCheckOptions {
  /** The checkout (a real path); it is copied, never written. */
  readonly root: string;
  /** The overlays of the target environment: each is rendered. */
  readonly overlays: readonly string[];
  /** Render where the renderer cannot be isolated (`--trust-repository`). @default false */
  readonly trustRepository?: boolean;
  /** Replaces `renderPlatform` (fault injection). @default renderPlatform */
  readonly render?: typeof renderPlatform;
}

/**
 * A check for a chart proposal: the checkout copied with the proposal's edits applied (without
 * `.git` and `node_modules`, which are read from `root` as library root), then each overlay of the
 * environment rendered by `renderPlatform` (trust domain `local`, the isolated renderer `synth`
 * uses: helm never runs in this process, which may hold a forge token; no caches, so it is a
 * render). Rendering a chart renders it twice and compares the objects (`renderRecorded`), so a
 * version that renders here renders deterministically. Answers `undefined` when every overlay
 * renders, or one line saying why the version is not proposed: the two renders differ, or the
 * render failed (the renderer's first error, with its construct path). Never throws for a render
 * failure; throws for an edit path outside the copy. The copy is removed.
 */
export function chartRenderCheck(
  opts: ChartRenderCheckOptions,
): (key: ChartRenderKey) => Promise<string | undefined> {
  const render = opts.render ?? renderPlatform;
  return async (key) => {
    const copy = realpathSync(mkdtempSync(join(tmpdir(), 'gw-propose-render-')));
    try {
      copyCheckout(opts.root, copy, key.edits);
      for (const overlay of opts.overlays) {
        try {
          await render(copy, {
            overlay,
            domain: 'local',
            cache: false,
            libraryRoots: [opts.root],
            ...(opts.trustRepository ? { trustRepository: true } : {}),
          });
        } catch (err) {
          return whyNot(err, overlay).replaceAll(copy, '.');
        }
      }
      return undefined;
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  };
}

/** The refusal for a render that failed: its first error, named as a determinism problem when it is one. */
function whyNot(err: unknown, overlay: string): string {
  const issue =
    err instanceof SynthValidationError ? err.issues.find((i) => i.severity === 'error') : undefined;
  if (!issue) return `does not render with the platform's values (overlay ${overlay}): ${errorMessage(err)}`;
  const text = `${issue.path}${issue.field ? ` (${issue.field})` : ''}: ${issue.message}`;
  return issue.message.startsWith(NOT_DETERMINISTIC)
    ? `does not render deterministically (overlay ${overlay}): ${text}`
    : `does not render with the platform's values (overlay ${overlay}): ${text}`;
}

/** How `renderRecorded` words a chart whose two renders differ. */
const NOT_DETERMINISTIC = 'renders differently each time';

/** The checkout without `.git` and `node_modules`, links kept as written, the edits applied. */
function copyCheckout(root: string, copy: string, edits: readonly ProposalEdit[]): void {
  cpSync(root, copy, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !['.git', 'node_modules'].includes(basename(src)) || src === root,
  });
  for (const edit of edits) {
    const target = resolve(copy, edit.path);
    // The engine checked the path; checked again where it reaches the file system.
    if (!isSafeEditPath(edit.path) || !target.startsWith(copy + sep))
      throw new Error(`edit path ${JSON.stringify(edit.path)} is not a repository path`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, edit.after);
  }
}
