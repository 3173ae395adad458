import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What `groundwork --help`, `completion` and `version --client` load is the command tree: main.ts
 * and the command modules, followed through their static imports (a dynamic `import()` runs only
 * when an action does; `import type` is erased). The packages it may load: nothing but commander
 * and the completion adapter. Everything else (the Kubernetes client, cdk8s, esbuild,
 * isomorphic-git, zod, yaml, pino, ora) belongs in `src/cli/actions/`, loaded by the action.
 */
const TREE_PACKAGES = ['@bomb.sh/tab/commander', 'commander'];

/** Source folders the tree may reach: the CLI's own declarations and the shared vocabulary. */
const TREE_FOLDERS = ['src/cli', 'src/core'];

/**
 * Single light modules outside those folders that a declaration uses: a choice list, and the
 * agent's flag declarations and their types (plain data; the zod schema derived from them is
 * `options-schema.ts`).
 */
const TREE_FILES = ['src/agent/agent-flags.ts', 'src/agent/options.ts', 'src/report/preview/gate.ts'];

interface StaticImports {
  files: string[];
  packages: string[];
}

/** The value imports of a TypeScript file: static `import`/`export ... from`, not `import type`, not `import()`. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)
          ? clause.namedBindings.elements.every((e) => e.isTypeOnly)
          : false);
      if (!typeOnly) out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Follows value imports from `entries`: the source files reached (relative to the root) and the packages. */
function staticClosure(entries: readonly string[]): StaticImports {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    const rel = relative(ROOT, file);
    if (files.has(rel)) return;
    files.add(rel);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) packages.add(spec);
      else visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  };
  for (const e of entries) visit(join(ROOT, e));
  return { files: [...files].sort(), packages: [...packages].sort() };
}

const commandModules = readdirSync(join(ROOT, 'src/cli/commands'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/cli/commands/${f}`);

describe('the command tree (help, completion) loads no action', () => {
  const tree = staticClosure(['src/cli/main.ts', ...commandModules]);

  it('imports no package but commander and the completion adapter', () => {
    expect(tree.packages).toEqual(TREE_PACKAGES);
  });

  it('reaches only the CLI declarations and core modules', () => {
    const outside = tree.files.filter(
      (f) => !TREE_FOLDERS.some((d) => f.startsWith(`${d}/`)) && !TREE_FILES.includes(f),
    );
    expect(outside).toEqual([]);
    expect(tree.files.filter((f) => f.startsWith('src/cli/actions/'))).toEqual([]);
  });

  it('reads value imports, not type-only imports or dynamic import()', () => {
    // The check itself: an action module imports heavy packages; a command module names it only
    // in `import type` and `import()`.
    expect(staticClosure(['src/cli/actions/drift.ts']).files).toContain('src/reconcile/drift-of.ts');
    expect(valueImports(join(ROOT, 'src/cli/commands/engine.ts'))).not.toContain('../actions/apply.js');
  });

  it('declares every command, with its flags, without running an action', async () => {
    const program = new Command('groundwork');
    await registerCommands(program, () => {});
    const names = program.commands.map((c) => c.name());
    expect(names).toEqual(
      expect.arrayContaining([
        'plan',
        'apply',
        'drift',
        'version',
        'synth',
        'cluster',
        'quickstart',
        'promote',
      ]),
    );
    const plan = program.commands.find((c) => c.name() === 'plan')!;
    expect(plan.options.map((o) => o.long)).toEqual(
      expect.arrayContaining([
        '--dir',
        '--overlay',
        '--kubeconfig',
        '--context',
        '--output',
        '--force-conflicts',
      ]),
    );
  });
});
