// Loads the bundled CLI (dist/cli/main.cjs, scripts/bundle-cli.mjs) through V8's code cache: Node
// 20 keeps no compiled code between runs, and parsing and compiling the bundle was a quarter of an
// unchanged `plan`'s CPU. The cache of a command is what V8 compiled during that command's first
// run (`script.createCachedData()` after it), so its next run starts from the compiled functions.
'use strict';
const {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

/** The bundle's first line: `// groundwork-bundle <id>` (scripts/bundle-cli.mjs `BUNDLE_ID_PREFIX`). */
const BUNDLE_ID = /^\/\/ groundwork-bundle ([0-9a-f]{32})\n/;

/** A cache larger than this is not read (the CLI's caches are ~3 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** At most this many caches of one bundle (a command word of its own each, `cacheWord`). */
const MAX_CACHES = 48;

/**
 * The word a command's cache is named by: the first argument that is not an option, when it is a
 * plain lowercase word (`plan`, `cluster`); `-` for anything else (none, an option, a path, a long
 * or odd word), so an argument can never name a file outside the cache's directory.
 */
function cacheWord(argv) {
  const word = argv.slice(2).find((a) => !a.startsWith('-'));
  return word !== undefined && /^[a-z][a-z0-9-]{0,31}$/.test(word) ? word : '-';
}

/**
 * The directory of the code caches: `code-cache` in Groundwork's cache (GROUNDWORK_CACHE_DIR, else
 * $XDG_CACHE_HOME/groundwork, else ~/.cache/groundwork, as src/core/cache-root.ts), or undefined
 * when GROUNDWORK_CODE_CACHE=0 turns the cache off.
 */
function cacheDir(env) {
  if (env.GROUNDWORK_CODE_CACHE === '0') return undefined;
  const root =
    env.GROUNDWORK_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'groundwork');
  return join(root, 'code-cache');
}

/**
 * Compiles and evaluates the bundle at `<packageRoot>/dist/cli/main.cjs` with the code cache of
 * `argv`'s command, else the build's seed beside the bundle (`main.cjs.cache`: its top level), if
 * V8 accepts it, and returns its exports (`main`) and `save`, which writes that command's cache when
 * there was none or V8 rejected it (another Node, other V8 flags, a broken file). A cache that
 * cannot be read or written is no cache: the CLI runs the same without one. Writes are a new file
 * renamed into place, so concurrent runs never see half of one; caches of other bundles and Node
 * versions unused for a day are removed when one is written.
 */
function loadBundledCli(packageRoot, argv, env = process.env) {
  // Its real path: the bundle finds dist/src (the synth child's files) beside its own directory.
  const file = realpathSync(join(packageRoot, 'dist', 'cli', 'main.cjs'));
  const source = readFileSync(file, 'utf8');
  // A copy, not a slice: a slice of `source` keeps all of it alive (7.5 MB held by `save`'s
  // `path` for a long-running command's whole life), beside the copy the script holds.
  const found = BUNDLE_ID.exec(source)?.[1];
  const id = found === undefined ? undefined : Buffer.from(found, 'latin1').toString('latin1');
  const dir = id === undefined ? undefined : cacheDir(env);
  const prefix = `${id}-${process.version}-${process.arch}-`;
  const path = dir === undefined ? undefined : join(dir, `${prefix}${cacheWord(argv)}.bin`);
  // The command's own cache, else the build's seed beside the bundle (its top level compiled).
  const seed = `${file}.cache`;
  let cachedData;
  let seeded = false;
  for (const candidate of path === undefined ? [] : [path, seed]) {
    try {
      const found = readFileSync(candidate);
      if (found.length > 0 && found.length <= MAX_CACHE_BYTES) {
        cachedData = found;
        seeded = candidate === seed;
        break;
      }
    } catch {
      // not there
    }
  }
  const { script, exports } = compileBundle(file, source, cachedData);
  // Whether the command's own cache was there and accepted, decided now: `save` keeps no reference
  // to the cache's bytes (1-3 MB a long-running command, the agent, would hold for its whole life).
  const ownAccepted = cachedData !== undefined && !seeded && !script.cachedDataRejected;
  const save = () => {
    if (path === undefined || ownAccepted) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const names = readdirSync(dir);
      const dayAgo = Date.now() - 24 * 3600 * 1000;
      for (const name of names.filter((n) => !n.startsWith(prefix)))
        if (statSync(join(dir, name)).mtimeMs < dayAgo)
          rmSync(join(dir, name), { force: true, recursive: true });
      if (names.filter((n) => n.startsWith(prefix) && n.endsWith('.bin')).length >= MAX_CACHES) return;
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, path);
    } catch {
      // a read-only or full disk: the next run compiles again
    }
  };
  return { main: exports.main, save };
}

/**
 * Compiles the bundle `file` (its text `source`) as a CommonJS module, with V8's `cachedData` when
 * given, evaluates it, and returns the script (for `createCachedData`) and the module's exports. The
 * one way the bundle is compiled: the build's seed cache (scripts/bundle-cli.mjs) is made by it too,
 * so V8 accepts the seed here.
 */
function compileBundle(file, source, cachedData) {
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const bundle = { exports: {} };
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, dirname(file));
  return { script, exports: bundle.exports };
}

module.exports = { loadBundledCli, cacheWord, compileBundle, cacheDir };
