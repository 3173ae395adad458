import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import of a source file: the module it names, resolved to a file under the same root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/**
 * The import graph of every `.ts` file under `<root>/<dir>`, as TypeScript itself reads and
 * resolves them (`preProcessFile`, `resolveModuleName` with the project's `tsconfig.json`):
 * static imports and re-exports, `import type`, and dynamic `import()` all count. Paths are
 * relative to `root`, with `/`. Imports of packages and of files outside `dir` are left out.
 */
export function importGraph(root: string, dir = 'src'): Map<string, ImportEdge[]> {
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const files = sourceFiles(join(root, dir));
  const inside = new Set(files);
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const edges: ImportEdge[] = [];
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule?.resolvedFileName;
      if (resolved && inside.has(resolved)) edges.push({ from: rel(root, file), to: rel(root, resolved) });
    }
    graph.set(rel(root, file), edges);
  }
  return graph;
}

/**
 * The import cycles of a graph: one per strongly connected component of more than one file (or a
 * file importing itself), each as a path `a -> b -> ... -> a` through the component.
 */
export function importCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set<string>();
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.add(w);
      if (w === v) break;
    }
    const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
    if (component.size > 1 || selfLoop) cycles.push(cycleThrough(v, component, graph));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** A shortest cycle from `start` back to itself inside `component` (breadth first). */
function cycleThrough(
  start: string,
  component: ReadonlySet<string>,
  graph: ReadonlyMap<string, readonly ImportEdge[]>,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let w = v; w !== start; w = previous.get(w)!) path.splice(1, 0, w);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, v);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

function compilerOptions(root: string): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config ?? {}, ts.sys, root).options;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function rel(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
