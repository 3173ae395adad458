import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { packageRoot, packageVersion } from '../../core/package-root.js';
import {
  groundworkDependency,
  unpublishedDependencyNote,
  type DependencySource,
} from '../init-dependency.js';
import type { SetExitCode } from '../commands/command-module.js';

/** Template files whose names would mean something to npm or git inside the package. */
const RENAMED: Readonly<Record<string, string>> = {
  'package.json.tmpl': 'package.json',
  'gitignore.tmpl': '.gitignore',
};

/** One file of a new platform repository: its path in the repository and its text. */
export interface ScaffoldFile {
  path: string;
  text: string;
}

/**
 * The files of a new platform repository, from the templates shipped in `templates/init/` with
 * `{{name}}`, `{{version}}` and `{{dependency}}` (the `groundwork-gitops` dependency as a JSON
 * string, default `^<version>`) filled in. Pure apart from reading the templates.
 */
export async function scaffoldFiles(opts: {
  name: string;
  version: string;
  dependency?: string;
}): Promise<ScaffoldFile[]> {
  const dependency = JSON.stringify(opts.dependency ?? `^${opts.version}`);
  const root = join(packageRoot, 'templates', 'init');
  const out: ScaffoldFile[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const text = await readFile(join(root, path), 'utf8');
        out.push({
          path: join(rel, RENAMED[entry.name] ?? entry.name),
          text: text
            .replaceAll('{{name}}', opts.name)
            .replaceAll('{{version}}', opts.version)
            .replaceAll('{{dependency}}', dependency),
        });
      }
    }
  };
  await walk('');
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Writes a new platform repository into `dir` (created when missing). Refuses, writing nothing,
 * when any file it would write exists, unless `force`. Returns the paths written. A tarball
 * dependency is copied into the repository (`vendor/<file>`) as bytes; nothing is run. A directory
 * dependency comes with an `.npmrc` of `install-links=true`, so `npm install` copies it.
 */
export async function initRepository(
  dir: string,
  opts: { name: string; force: boolean; dependency?: DependencySource },
): Promise<string[]> {
  const dep = opts.dependency;
  const files = await scaffoldFiles({ name: opts.name, version: packageVersion(), dependency: dep?.spec });
  // npm links a directory dependency by default, and synth refuses a link that leaves the
  // repository: install-links makes npm copy it into node_modules instead (it runs no script).
  if (dep?.kind === 'directory') files.push({ path: '.npmrc', text: 'install-links=true\n' });
  const existing = [];
  for (const f of files) if (await exists(join(dir, f.path))) existing.push(f.path);
  if (existing.length > 0 && !opts.force) {
    throw new GroundworkError({
      code: 'InitWouldOverwrite',
      subject: dir,
      message: `${existing.length} file(s) exist: ${existing.join(', ')}`,
      fix: 'choose an empty directory, or pass --force to overwrite them',
    });
  }
  for (const f of files) {
    await mkdir(join(dir, f.path, '..'), { recursive: true });
    await writeFile(join(dir, f.path), f.text);
  }
  if (dep?.kind === 'tarball') {
    await mkdir(join(dir, 'vendor'), { recursive: true });
    await copyFile(dep.from, join(dir, dep.vendored));
    return [...files.map((f) => f.path), dep.vendored];
  }
  return files.map((f) => f.path);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A package-name-like platform name from a directory name (`My Platform` → `my-platform`). */
export function platformNameOf(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name || 'platform';
}

/** What `groundwork init` was given on the command line. */
export interface InitFlags {
  name?: string;
  force?: boolean;
  groundworkVersion?: string;
}

/** `groundwork init [dir]`: writes the scaffold and says what comes next. */
export async function runInit(
  dirArg: string | undefined,
  flags: InitFlags,
  setExitCode: SetExitCode,
): Promise<void> {
  const dir = resolve(dirArg ?? '.');
  const name = flags.name ?? platformNameOf(dir);
  const dependency = groundworkDependency({
    spec: flags.groundworkVersion,
    cwd: process.cwd(),
    self: {
      root: packageRoot,
      version: packageVersion(),
      gitCheckout: existsSync(join(packageRoot, '.git')),
    },
  });
  const written = await initRepository(dir, { name, force: flags.force ?? false, dependency });
  const shown = relative(process.cwd(), dir) || '.';
  const out = process.stdout;
  out.write(`Created platform repository "${name}" in ${shown}:\n`);
  out.write(`  (groundwork-gitops: ${dependency.spec})\n`);
  if (flags.groundworkVersion === undefined) out.write(`  note: ${unpublishedDependencyNote(dependency)}\n`);
  for (const path of written) out.write(`  ${path}\n`);
  out.write(
    [
      '',
      'Next steps:',
      ...(shown === '.' ? [] : [`  cd ${shown}`]),
      '  npm install              # groundwork-gitops and typescript, for your editor and CI',
      '  npx groundwork synth     # the dev overlay as manifests',
      '  npm run typecheck        # tsc --noEmit',
      '  git init && git add -A && git commit -m "Platform scaffold"',
      '  npx groundwork cluster up --openshift   # a local simulated OpenShift to apply it to (see README.md)',
      '',
    ].join('\n'),
  );
  setExitCode(0);
}
