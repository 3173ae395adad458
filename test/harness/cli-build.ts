// The `groundwork` command the tests run: this checkout's sources built as users install them
// (compiled JavaScript in dist/src, the CLI bundled into dist/cli by scripts/bundle-cli.mjs), not
// the TypeScript sources through tsx. A CLI process from the sources spends most of its CPU
// resolving and transforming hundreds of modules through tsx's hooks: 34 s of CPU for the CLI fuzz
// file against 15 s from a build (CONTRIBUTING.md, "The time budget").
//
// The build is content-addressed: a directory per hash of everything it is made from, under
// node_modules/.cache/groundwork-test-cli/ (in the checkout, so the build finds the checkout's
// node_modules by Node's own lookup, and readable by every user as the checkout is), made once
// (about 12 s: esbuild, no type check, `npm run lint` type-checks; the bundle, its seed code cache
// and light answers) and never changed after, so test runs started side by side, or while the
// sources change, never see a half-written build. A copy is kept in Groundwork's cache
// (`storeDir`), from which a fresh clone of the same sources copies it instead of building. Its
// package root holds copies of the package's own data (templates, CRDs, catalogs, the example
// platform), as an installed package has them.
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot } from '../../src/core/cache-root.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** What the package carries beside its code (package.json `files`), copied into the build. */
const DATA = ['data', 'crds', 'templates', 'catalogs', 'platform', 'overlays', 'examples', 'groundwork.yaml'];

/** The variable that names the build's `bin/groundwork.js` in test workers (set by the global setups). */
export const TEST_CLI = 'GROUNDWORK_TEST_CLI';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  if (statSync(dir).isDirectory()) walk(dir);
  else out.push(dir);
  return out;
}

/** A hash of every file the build is made from, and of `extra` files or folders of the checkout. */
export function sourceKey(extra: readonly string[] = []): string {
  const hash = createHash('sha256');
  const inputs = [
    'src',
    'bin',
    'scripts/bundle-cli.mjs',
    'package.json',
    // The bundle holds the dependencies' code: their versions are an input.
    'package-lock.json',
    'test/harness/cli-build.ts',
    ...DATA,
    ...extra,
  ];
  for (const input of inputs)
    for (const file of filesUnder(join(REPO, input))) {
      hash.update(relative(REPO, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  return hash.digest('hex').slice(0, 20);
}

/**
 * Builds this checkout's CLI, or finds the build of the same sources, and returns the path of its
 * `bin/groundwork.js`. Removes builds of other sources unused for a day.
 */
export async function buildTestCli(): Promise<{ bin: string; built: boolean; ms: number }> {
  const started = Date.now();
  const cache = join(REPO, 'node_modules', '.cache', 'groundwork-test-cli');
  const root = join(cache, sourceKey());
  const bin = join(root, 'bin', 'groundwork.js');
  if (existsSync(join(root, '.complete'))) return { bin, built: false, ms: Date.now() - started };
  const key = basename(root);
  const stored = join(storeDir(), key);
  const fromStore = existsSync(join(stored, '.complete'));
  const tmp = `${root}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    if (fromStore) {
      cpSync(stored, tmp, { recursive: true });
      // Used: the store keeps the newest.
      utimesSync(stored, new Date(), new Date());
    } else await buildInto(tmp);
    try {
      renameSync(tmp, root);
    } catch {
      // Another run finished the same build first: theirs is the same.
      if (!existsSync(join(root, '.complete')))
        throw new Error(`test CLI build: cannot move ${tmp} to ${root}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  prune(cache, root);
  if (!fromStore) store(root, key);
  return { bin, built: !fromStore, ms: Date.now() - started };
}

/**
 * Builds kept outside the checkout, by the same key: `<cache>/test-cli/` in Groundwork's cache. A
 * fresh clone (CI's) has an empty node_modules/.cache, and a build takes 12 s of a quiet machine's
 * wall time (40 s at the start of a run, beside the control planes starting), before any test runs;
 * a copy of a stored build takes a fraction of a second. The newest `STORED` are kept.
 */
function storeDir(): string {
  return join(cacheRoot(), 'test-cli');
}

const STORED = 4;

function store(root: string, key: string): void {
  const dir = storeDir();
  const tmp = join(dir, `.tmp-${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true });
    cpSync(root, tmp, { recursive: true });
    renameSync(tmp, join(dir, key));
  } catch {
    // Stored by another run meanwhile, or a full disk: the next run builds again.
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  try {
    const builds = readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .map((n) => join(dir, n))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const old of builds.slice(STORED)) rmSync(old, { recursive: true, force: true });
  } catch {
    // Pruned by another run meanwhile.
  }
}

async function buildInto(dir: string): Promise<void> {
  const { build } = await import('esbuild');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  // The entry with its package.json, which makes it a CommonJS script.
  cpSync(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
  for (const d of DATA) cpSync(join(REPO, d), join(dir, d), { recursive: true });
  // dist/src: each module compiled on its own, as tsc emits them (the build's tsconfig).
  const sources = filesUnder(join(REPO, 'src'));
  await build({
    entryPoints: sources.filter((f) => f.endsWith('.ts')),
    outdir: join(dir, 'dist', 'src'),
    outbase: join(REPO, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    logLevel: 'warning',
  });
  for (const f of sources.filter((f) => f.endsWith('.mjs')))
    cpSync(f, join(dir, 'dist', 'src', relative(join(REPO, 'src'), f)));
  const { bundleCli } = (await import(join(REPO, 'scripts', 'bundle-cli.mjs'))) as {
    bundleCli: (root: string) => Promise<string[]>;
  };
  await bundleCli(dir);
  writeFileSync(join(dir, '.complete'), new Date().toISOString());
}

/** Removes other builds (and abandoned temporary ones) not touched for a day. */
function prune(cache: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(cache)) {
    const p = join(cache, name);
    if (p === keep) continue;
    try {
      if (statSync(p).mtimeMs < dayAgo) rmSync(p, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}
