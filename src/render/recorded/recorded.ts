// Where recording constructs keep their request, and how synth finds them in the tree.
import type { IConstruct } from 'constructs';
import type { RenderRequest } from './render-request.js';

const REQUEST = Symbol.for('groundwork.RenderRequest');

/** Marks `scope` as recording `request` (one per construct). Kept off the construct's public API. */
export function recordRender(scope: IConstruct, request: RenderRequest): void {
  Object.defineProperty(scope, REQUEST, { value: request });
}

/**
 * Every request recorded in the tree of `root`, in tree order (`nodes`: that tree as the caller
 * already walked it, `root.node.findAll()`). A symbol from the global registry, not `instanceof`:
 * the construct classes may come from another copy of Groundwork.
 */
export function recordedRenders(
  root: IConstruct,
  nodes: readonly IConstruct[] = root.node.findAll(),
): RenderRequest[] {
  return nodes
    .map((c) => (c as unknown as Record<symbol, RenderRequest | undefined>)[REQUEST])
    .filter((r): r is RenderRequest => r !== undefined);
}
