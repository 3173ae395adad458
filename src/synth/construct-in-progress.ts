import type { IConstruct } from 'constructs';

/**
 * The construct whose constructor threw `err` while `root`'s tree was being built, named as well
 * as can be known from the tree and the stack (pure):
 * - the construct created last, or the nearest of its scopes, whose class has a `new <Class>`
 *   frame on the stack: it was still being built (its own constructor, after `super()`, or one of
 *   the children it was creating);
 * - else, a construct that threw before `super()` never joined the tree: `a new <Class>` of the
 *   outermost `new` frame on the stack (the one platform code called);
 * - else undefined (the error came from plain platform code).
 * Never the previous, finished construct. JavaScript's global constructors (`Promise`, `Map`) are
 * no construct classes and are skipped.
 */
export function constructInProgress(root: IConstruct, err: unknown): string | undefined {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const building = [...stack.matchAll(/\bat new ([A-Za-z_$][\w$]*)/g)]
    .map((m) => m[1]!)
    // JavaScript's own constructors (`new Promise` of the caller's async code) build no construct.
    .filter((name) => !(name in globalThis));
  if (building.length === 0) return undefined;
  const all = root.node.findAll();
  for (
    let c: IConstruct | undefined = all.length > 1 ? all.at(-1) : undefined;
    c && c !== root;
    c = c.node.scope
  )
    if (building.includes(c.constructor.name)) return c.node.path;
  return `a new ${building.at(-1)!} (not yet in the construct tree)`;
}
