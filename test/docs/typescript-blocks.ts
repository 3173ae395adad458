import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import ts from 'typescript';

const md = new MarkdownIt({ html: true });

/** The comment line that exempts the next code block of a page from the check (keep it rare). */
export const NOT_CHECKED = '<!-- not checked -->';

/** One TypeScript code block of a page that imports `groundwork-gitops`. */
export interface TypeScriptBlock {
  /** The page, relative to the repository root. */
  page: string;
  /** The 1-based line of the block's first code line in the page. */
  line: number;
  code: string;
}

/**
 * Every ```ts / ```typescript block of `page` (relative to `root`) that imports from
 * `'groundwork-gitops'`, but those a `<!-- not checked -->` line right before the fence exempts.
 */
export function typeScriptBlocks(root: string, page: string): TypeScriptBlock[] {
  const text = readFileSync(join(root, page), 'utf8');
  const lines = text.split('\n');
  return md
    .parse(text, {})
    .filter((t) => t.type === 'fence' && /^(ts|typescript)$/.test(t.info.trim()) && t.map)
    .filter((t) => /from\s+['"]groundwork-gitops['"]/.test(t.content))
    .filter((t) => lines[t.map![0] - 1]?.trim() !== NOT_CHECKED)
    .map((t) => ({ page, line: t.map![0] + 2, code: t.content }));
}

/**
 * What a block may use without declaring it: a snippet of a platform's `build(scope, values)`
 * after `const platform = new Platform(...)`. Declared on the file's first line only where the
 * block does not declare the name itself, so the block's lines keep their numbers (+1).
 */
function preludeFor(code: string): string {
  const declares = (name: string) =>
    new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+${name}\\b`, 'm').test(code);
  return [
    "import type { Platform as GwPlatform } from 'groundwork-gitops';",
    declares('platform') ? '' : 'declare const platform: GwPlatform;',
    declares('scope') ? '' : "declare const scope: import('constructs').Construct;",
    // An overlay's values are the platform's own schema; a snippet cannot know its shape.
    declares('values') ? '' : 'declare const values: any;',
  ].join(' ');
}

/** One compiler diagnostic in a block, as `page:line: message`. */
export type BlockProblem = string;

/**
 * Type-checks `blocks` in one TypeScript program with the repository's tsconfig.json, each block a
 * module of its own at `<root>/test/docs/.blocks/` (never written to disk), so `'groundwork-gitops'`
 * resolves to `src/index.ts` through the package's own exports, as a platform repository's import
 * does. Returns each problem with the page and line it is on.
 */
export function checkTypeScriptBlocks(root: string, blocks: readonly TypeScriptBlock[]): BlockProblem[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false };
  const dir = resolve(root, 'test/docs/.blocks');
  const files = new Map<string, TypeScriptBlock>();
  blocks.forEach((b, i) => files.set(join(dir, `block-${i}.ts`), b));
  const sourceOf = (f: string) => {
    const b = files.get(f);
    return b ? `${preludeFor(b.code)}\n${b.code}` : undefined;
  };
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => sourceOf(f) ?? readFile.call(host, f);
  host.directoryExists = (d) => d === dir || (directoryExists?.call(host, d) ?? ts.sys.directoryExists(d));
  host.getSourceFile = (f, lang, onError, create) => {
    const text = sourceOf(f);
    return text === undefined
      ? getSourceFile.call(host, f, lang, onError, create)
      : ts.createSourceFile(f, text, lang, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const problems: BlockProblem[] = [];
  for (const [file, block] of files) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const d of diagnostics) {
      const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      problems.push(`${block.page}:${block.line + Math.max(0, line - 1)}: ${message}`);
    }
  }
  return problems;
}
