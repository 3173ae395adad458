// The installed CLI's start-up: `npm run build` bundles the compiled CLI (dist/src/cli/main.js)
// into one CommonJS script, dist/cli/main.cjs, because Node loads one large file much faster than
// many small ones (the Kubernetes client alone is about 2,500 modules: 0.4 s of CPU of a 1.1 s
// `groundwork plan` before the first bundle, docs/benchmarks.md, `bench cli`), and because a
// script, unlike an ES module in Node 20, can be compiled from V8's code cache: bin/bundled-cli.js
// keeps one per command, so a command's second run neither parses nor compiles what it ran the
// first time. Each lazily loaded part (each command's action is a dynamic import) is evaluated
// only when imported, as in the split ES module bundle it replaces.
// dist/src stays as it is: the library API, and what the synth child bundles at run time.
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Packages left out of the chunks, imported from node_modules at run time: those that find files
 * by their own path (esbuild its binary, pino its worker and transports, ssh2 its optional native
 * crypto addon and cpu-features'), and the construct
 * libraries, which only the synth child (a bundle of its own) needs. Every other package is
 * bundled: a CommonJS package imported from ESM costs Node a parse of its source for its export
 * names besides loading it, 0.15 s of CPU of `plan` for yaml, semver, isomorphic-git and the rest.
 * openpgp (LGPL-3.0-or-later) stays a package of its own in node_modules, as the LGPL asks of a
 * library combined with other code: a user can replace it without rebuilding Groundwork.
 */
const EXTERNAL = [
  'esbuild',
  'pino',
  'pino-pretty',
  'thread-stream',
  'cdk8s',
  'constructs',
  'openpgp',
  'ssh2',
];

/**
 * Packages whose modules only declare: importing one of their files runs nothing but the
 * definitions of what it exports (no module registers, patches or starts anything on load, no file
 * is imported for its effects alone). esbuild is told so (`sideEffects: false`, as a package.json
 * can say), so it keeps only the files whose exports the CLI reaches. For @kubernetes/client-node
 * that is its KubeConfig and what it uses (15 files): its entry point's `export *` of ~720
 * generated API models and their ObjectSerializer, which Groundwork never calls, otherwise stays
 * in the bundle and is evaluated by every command that talks to a cluster. The library itself is
 * unchanged: the kept files are its own, as published.
 */
const SIDE_EFFECT_FREE = ['@kubernetes/client-node'];

/**
 * Modules that a bundled package imports and the CLI never uses, each replaced in the bundle by
 * what is used of it, by the importing package's file (`importer`, a path under node_modules) and
 * the import as written (`path`):
 * - node-fetch 2 (the Kubernetes client's) takes its `URL` from Node's `url` module whenever that
 *   has one (`Url.URL || whatwgUrl.URL`, true since Node 10) and uses whatwg-url for nothing
 *   else: whatwg-url with tr46's Unicode tables is 0.35 MB, and tr46 builds its tables when loaded;
 * - zod's `z.locales` and `core.locales` namespaces hold its error messages in 50 languages
 *   (0.37 MB); zod itself uses English (`locales/en.js`, imported on its own) and Groundwork's code
 *   never reads the namespace (test/cli/cli-bundle-replaced.test.ts), so it holds `en` only. A
 *   platform's own code is bundled by the synth child, with all of zod.
 * - the Kubernetes client's KubeConfig (`dist/config.js`) takes two names from its generated
 *   client's index (`./gen/index.js`): `createConfiguration` and `ServerConfiguration`. The index
 *   also re-exports ~720 API models, which the lazily evaluated bundle keeps and evaluates with it
 *   whatever `sideEffects` says (2.5 MB of heap a long-running agent held); the replacement takes
 *   the two from their own files.
 * Every command that talks to a cluster (node-fetch) or validates anything (zod) compiled them.
 */
export const REPLACED = [
  {
    importer: ['node-fetch', 'lib'],
    path: 'whatwg-url',
    contents: "module.exports = { URL: require('node:url').URL };",
  },
  {
    importer: ['@kubernetes', 'client-node', 'dist'],
    path: './gen/index.js',
    contents:
      "export { createConfiguration } from './configuration.js';\nexport { ServerConfiguration } from './servers.js';",
  },
  {
    importer: ['zod', 'v4'],
    path: '../locales/index.js',
    contents: "export { default as en } from './en.js';",
  },
];

/** The command modules' index (src/cli/commands/index.ts, compiled). */
const COMMAND_INDEX = join('cli', 'commands', 'index.js');

/**
 * The command index with its command modules imported statically, so they are bundled into the
 * CLI's first chunk. Each command module only declares (test/cli/command-tree.test.ts) and is a
 * few hundred bytes to a few KB; loaded one by one, each was a chunk of its own, and `--help` or
 * `completion`, which need them all, paid Node's per-module cost (resolve, read, link) 21 times.
 * The index's own order of registration stays as written. Throws when the index no longer loads
 * its modules as `import('./<name>.js')` (the rewrite would silently do nothing).
 */
function commandsInline(text, path) {
  const names = [];
  const code = text.replace(/\bimport\((['"])\.\/([\w-]+)\.js\1\)/g, (_all, _q, name) => {
    names.push(name);
    return `Promise.resolve(__gwCommand${names.length - 1})`;
  });
  if (names.length === 0) throw new Error(`${path}: no import('./<command>.js') to bundle statically`);
  const imports = names.map((name, i) => `import * as __gwCommand${i} from './${name}.js';`);
  return `${imports.join('\n')}\n${code}`;
}

/** The bundled CLI, in dist/cli/. */
export const MAIN = 'main.cjs';

/**
 * The first line of `MAIN`: `// groundwork-bundle <id>`, the id a hash of the rest. The code cache
 * of bin/bundled-cli.js is named by it (V8 checks only the length of the source a cache was made
 * from, so two builds of one length must not share a cache).
 */
export const BUNDLE_ID_PREFIX = '// groundwork-bundle ';

/**
 * Bundles `<root>/dist/src/cli/main.js` into `<root>/dist/cli/<MAIN>` and writes the light answers.
 * Whitespace and syntax are minified (a third less to read and parse when no code cache is there);
 * names are kept, so stack traces still name functions. Returns the files written.
 */
export async function bundleCli(root) {
  const outdir = join(root, 'dist', 'cli');
  await rm(outdir, { recursive: true, force: true });
  const outfile = join(outdir, MAIN);
  await build({
    entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    // Strict, as the ES modules it is made of (esbuild's own "use strict" comes after the banner,
    // where it is no directive), and knowing its own URL (bundled modules compute theirs from it).
    banner: { js: "'use strict';\nconst __gwChunkUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [{ name: 'groundwork-cli', setup: (b) => setup(b, outdir) }],
  });
  const code = asciiOnly(await readFile(outfile, 'utf8'));
  const id = createHash('sha256').update(code).digest('hex').slice(0, 32);
  await writeFile(outfile, `${BUNDLE_ID_PREFIX}${id}\n${code}`);
  writeSeedCache(outfile);
  await writeLightAnswers(root);
  return [outfile, `${outfile}${SEED_SUFFIX}`, join(outdir, LIGHT_ANSWERS)];
}

/**
 * `code` with every character above U+007F written as a `\uXXXX` escape, which esbuild leaves as
 * it is in tagged templates and regular expression literals (the dashboard's `html` templates,
 * one library's regular expression): a script with one such character is a two-byte string in V8,
 * 7.5 MB instead of 3.9 MB that a long-running command (the agent) holds for its whole life, as
 * the compiled functions' source. The escape means the same in every place such a character is
 * (strings, cooked templates, regular expressions, comments); it would not in a template's `raw`
 * strings or after a backslash, so throws on the latter, and the tagged templates the bundle
 * holds read only cooked strings (test/cli/cli-bundle-memory.test.ts).
 */
export function asciiOnly(code) {
  const escaped = /\\[\u0080-\uffff]/.exec(code);
  if (escaped) throw new Error(`bundle: a backslash before a non-ASCII character at ${escaped.index}`);
  return code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The seed code cache beside the bundle: `<MAIN><SEED_SUFFIX>`. */
export const SEED_SUFFIX = '.cache';

/**
 * Writes the bundle's seed code cache (`<bundle><SEED_SUFFIX>`, ~1 MB): V8's compiled form of the
 * bundle's top level, evaluated in a Node of its own by bin/bundled-cli.js's `compileBundle`.
 * A command whose own cache is not there yet (its first run, a fresh cache directory) starts from
 * it instead of parsing the whole bundle; a Node whose V8 differs rejects it and compiles as
 * without it.
 */
function writeSeedCache(bundle) {
  const script = [
    "const fs = require('node:fs');",
    'const [loader, file, out] = process.argv.slice(1);',
    "const { script } = require(loader).compileBundle(file, fs.readFileSync(file, 'utf8'));",
    'fs.writeFileSync(out, script.createCachedData());',
  ].join('\n');
  const loader = join(dirname(bundle), '..', '..', 'bin', 'bundled-cli.js');
  execFileSync(process.execPath, ['-e', script, loader, bundle, `${bundle}${SEED_SUFFIX}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** What bin/groundwork.js answers without loading the CLI (written beside the chunks). */
export const LIGHT_ANSWERS = 'light-answers.json';

/**
 * The command lines bin/groundwork.js answers from `LIGHT_ANSWERS`, exactly as given (no other
 * argument, no other order), and whether what they print depends on the terminal's width (commander
 * wraps help to it). Each prints the same for any environment, directory and kubeconfig
 * (test/cli/light-answers.test.ts checks it).
 */
const LIGHT = [
  { argv: ['--help'], wraps: true },
  { argv: ['-h'], wraps: true },
  { argv: ['version', '--client'], wraps: false },
  ...['bash', 'zsh', 'fish', 'powershell'].map((shell) => ({ argv: ['completion', shell], wraps: false })),
];

/** Help's width when stdout is not a terminal (commander's default), the width the answers are printed at. */
const HELP_WIDTH = 80;

/**
 * Runs the bundled CLI for each of `LIGHT` (stdout a pipe: help at `HELP_WIDTH` columns) and writes
 * what it printed to `<root>/dist/cli/<LIGHT_ANSWERS>`: `{ answers: [{ argv, stdout, width? }] }`
 * (`width` on the answers that wrap). The file does not exist while they run, so each is the full
 * CLI's own output. Throws when one exits non-zero.
 */
async function writeLightAnswers(root) {
  const answers = LIGHT.map(({ argv, wraps }) => {
    const stdout = execFileSync(process.execPath, [join(root, 'bin', 'groundwork.js'), ...argv], {
      // No code cache: a build's runs would leave caches of a bundle nobody may run.
      env: { ...process.env, GROUNDWORK_RUN_FROM: 'dist', GROUNDWORK_CODE_CACHE: '0' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    return wraps ? { argv, stdout, width: HELP_WIDTH } : { argv, stdout };
  });
  await writeFile(join(root, 'dist', 'cli', LIGHT_ANSWERS), `${JSON.stringify({ answers })}\n`);
}

function setup(b, outdir) {
  const pure = SIDE_EFFECT_FREE.map((pkg) => `${sep}node_modules${sep}${pkg.split('/').join(sep)}${sep}`);
  const inPure = (path) => pure.some((dir) => path.includes(dir));
  const again = Symbol('resolved by groundwork-cli');
  for (const [i, { importer, path }] of REPLACED.entries()) {
    const from = `${sep}node_modules${sep}${importer.join(sep)}${sep}`;
    b.onResolve({ filter: new RegExp(`^${path.replace(/[.]/g, '\\.')}$`) }, (args) =>
      args.importer.includes(from)
        ? {
            path: `${i}`,
            namespace: 'groundwork-replaced',
            pluginData: resolve(args.resolveDir, dirname(path)),
          }
        : undefined,
    );
  }
  b.onLoad({ filter: /.*/, namespace: 'groundwork-replaced' }, (args) => ({
    contents: REPLACED[Number(args.path)].contents,
    loader: 'js',
    resolveDir: args.pluginData,
  }));
  b.onResolve({ filter: /.*/ }, async (args) => {
    if (args.pluginData === again) return undefined;
    const named = SIDE_EFFECT_FREE.some((pkg) => args.path === pkg || args.path.startsWith(`${pkg}/`));
    if (!named && !(args.path.startsWith('.') && inPure(args.importer))) return undefined;
    const { importer, kind, resolveDir } = args;
    const found = await b.resolve(args.path, { importer, kind, resolveDir, pluginData: again });
    if (found.errors.length > 0 || found.external || !inPure(found.path)) return undefined;
    return { path: found.path, sideEffects: false };
  });
  b.onResolve({ filter: /^[^./]/ }, (args) => {
    if (args.path.startsWith('node:')) return { external: true };
    const parts = args.path.split('/');
    const pkg = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    return EXTERNAL.includes(pkg) ? { external: true } : undefined;
  });
  // `import.meta.url` keeps naming the module's own file in dist/src (the synth child's
  // run-child.js beside bundle.js, the package root above package-root.js): the bundle sits in
  // `outdir`, so the file is a fixed relative path from it. A syntactic rewrite (esbuild's
  // define), so a string that mentions import.meta.url is left alone.
  b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, async (args) => {
    const text = await readFile(args.path, 'utf8');
    if (args.path.endsWith(COMMAND_INDEX)) return { contents: commandsInline(text, args.path), loader: 'js' };
    if (!text.includes('import.meta')) return { contents: text, loader: 'js' };
    const { code } = await transform(text, {
      loader: 'js',
      format: 'esm',
      define: { 'import.meta.url': '__gwMetaUrl' },
    });
    const here = JSON.stringify(relative(outdir, args.path).split('\\').join('/'));
    return { contents: `const __gwMetaUrl = new URL(${here}, __gwChunkUrl).href;\n${code}`, loader: 'js' };
  });
}
