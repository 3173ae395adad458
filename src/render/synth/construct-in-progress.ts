import type { IConstruct } from 'constructs';

/**
 * The construct whose constructor threw `err` while `root`'s tree was being built, named as well
 * as can be known from the tree and the stack (pure):
 * - the construct created last, or the nearest of its scopes, whose class has a `new <Class>`
 *   frame on the stack: it was still being built (its own constructor, after `super()`, or one of
 *   the children it was creating); when a `new <Other>` frame is inside its own (a child that
 *   threw before or in `super()`, so never joined the tree), that one is named too:
 *   `platform/outer (in a new Inner, not yet in the construct tree)`;
 * - else, a construct that threw before `super()` never joined the tree: `a new <Class>` of the
 *   outermost `new` frame on the stack (the one platform code called);
 * - else undefined (the error came from plain platform code, or the stack was cut before any
 *   constructor frame: build under `withDeepStacks` so it is not).
 * Never the previous, finished construct, except a finished construct of the very class being
 * created again (a duplicate id: constructs' own message then names the id). JavaScript's global
 * constructors (`Promise`, `Map`) and Node's (frames in `node:` modules, `new Worker`) are no
 * construct classes and are skipped.
 */
export function constructInProgress(root: IConstruct, err: unknown): string | undefined {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const building = [...stack.matchAll(/\bat new ([A-Za-z_$][\w$]*)(?: \(([^)\n]*)\))?/g)]
    // JavaScript's own constructors (`new Promise` of the caller's async code) and Node's (`new
    // Worker` of node:worker_threads, whose frame is in node:internal) build no construct.
    .filter((m) => !(m[1]! in globalThis) && !m[2]?.startsWith('node:'))
    .map((m) => m[1]!);
  if (building.length === 0) return undefined;
  const all = root.node.findAll();
  for (
    let c: IConstruct | undefined = all.length > 1 ? all.at(-1) : undefined;
    c && c !== root;
    c = c.node.scope
  ) {
    const at = building.indexOf(c.constructor.name);
    if (at < 0) continue;
    // The outermost frame inside this construct's own that is not one of its base classes (their
    // constructors run in its `super()`): what its constructor was creating when it threw.
    const bases = classNames(c);
    const inner = building
      .slice(0, at)
      .filter((name) => !bases.has(name))
      .at(-1);
    return inner ? `${c.node.path} (in a new ${inner}, not yet in the construct tree)` : c.node.path;
  }
  return `a new ${building.at(-1)!} (not yet in the construct tree)`;
}

/** The names of a construct's class and of every class it extends. */
function classNames(c: IConstruct): Set<string> {
  const names = new Set<string>();
  for (let p: unknown = Object.getPrototypeOf(c); p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    names.add((p as { constructor: { name: string } }).constructor.name);
  return names;
}

/** Frames kept while platform code builds: enough to reach its constructors under deep library calls. */
const BUILD_STACK_FRAMES = 200;

/**
 * Runs `fn` with `Error.stackTraceLimit` raised, so that an error thrown deep inside a library
 * (zod, yaml, a recursive helper) still carries the `new <Class>` frames `constructInProgress`
 * reads (V8 keeps 10 by default). Restores the limit after, also when `fn` throws.
 */
export function withDeepStacks<T>(fn: () => T): T {
  const before = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.max(before, BUILD_STACK_FRAMES);
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = before;
  }
}
