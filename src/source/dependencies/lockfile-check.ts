// What the agent agrees to install from a platform repository's package-lock.json.
import { z } from 'zod';

/** npm's public registry: lockfiles name it, and npm rewrites it to the configured registry. */
export const NPM_REGISTRY = 'https://registry.npmjs.org/';

const entrySchema = z.looseObject({
  resolved: z.string().optional(),
  integrity: z.string().optional(),
  link: z.boolean().optional(),
  dev: z.boolean().optional(),
  inBundle: z.boolean().optional(),
});

const lockfileSchema = z.looseObject({
  lockfileVersion: z.number(),
  packages: z.record(z.string(), entrySchema).optional(),
});

const packageJsonSchema = z.looseObject({
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  workspaces: z.unknown().optional(),
});

/**
 * Whether `npm ci --omit=dev` of this package.json installs nothing: no `dependencies` and no
 * `optionalDependencies` (only devDependencies, which the agent never installs). A package.json
 * that does not read as one is not "nothing": `lockfileProblems` refuses it.
 */
export function installsNothing(packageJson: unknown): boolean {
  const pkg = packageJsonSchema.safeParse(packageJson);
  if (!pkg.success) return false;
  return Object.keys({ ...pkg.data.dependencies, ...pkg.data.optionalDependencies }).length === 0;
}

/** A lockfile entry's path: node_modules/<name>, nested as often as npm nests them. */
const MODULE_PATH = /^(node_modules\/(@[^/]+\/)?[^/@.][^/]*\/)*node_modules\/(@[^/]+\/)?[^/@.][^/]*$/;

/** A package.json spec that is no registry version: a path, a link, a URL, a git or GitHub source. */
const NON_REGISTRY_SPEC =
  /^(file:|link:|portal:|git\+|git:|github:|gitlab:|bitbucket:|gist:|https?:|[./~])|^[^@\s][^\s]*\/[^\s]+$/;

/** Quotes a name from the repository for an error, cut short (it is the repository's own text). */
function quote(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/**
 * The problems that keep the agent from installing a platform repository's locked dependencies,
 * one line each (empty: installable). Pure. What it accepts: `package-lock.json` of
 * lockfileVersion 2 or 3, no workspaces, and every package the production install fetches
 * (`npm ci --omit=dev`) a registry tarball with an `integrity`: its `resolved` URL on `registry`
 * or on npm's public registry (which npm rewrites to `registry`), or no `resolved` (npm fetches
 * the name and version from `registry`). It refuses links and paths
 * (`file:`), git sources and other URLs among the production dependencies, in package.json and
 * in the lockfile. Development dependencies are not installed, so not checked. Never quotes a
 * `resolved` URL (it may carry a token): only its host.
 */
export function lockfileProblems(opts: {
  lockfile: unknown;
  packageJson: unknown;
  registry: string;
}): string[] {
  const lock = lockfileSchema.safeParse(opts.lockfile);
  if (!lock.success || !lock.data.packages || lock.data.lockfileVersion < 2)
    return ['package-lock.json: not a lockfile of lockfileVersion 2 or 3 (npm 7 or later writes one)'];
  const pkg = packageJsonSchema.safeParse(opts.packageJson);
  if (!pkg.success) return ['package.json: dependencies must map names to version strings'];
  const problems: string[] = [];
  if (pkg.data.workspaces !== undefined)
    problems.push('package.json: workspaces are not installed by the agent');
  for (const field of ['dependencies', 'optionalDependencies'] as const)
    for (const [name, spec] of Object.entries(pkg.data[field] ?? {}))
      if (NON_REGISTRY_SPEC.test(spec.replace(/^npm:/, '')))
        problems.push(
          `package.json: ${field} ${quote(name)} is not a registry version (a path, link, URL or git source)`,
        );
  const allowed = new Set([new URL(opts.registry).origin, new URL(NPM_REGISTRY).origin]);
  for (const [path, entry] of Object.entries(lock.data.packages)) {
    if (path === '' || entry.dev === true) continue;
    if (!MODULE_PATH.test(path)) {
      problems.push(
        `package-lock.json: ${quote(path)} is not under node_modules (a path or workspace dependency)`,
      );
      continue;
    }
    if (entry.link === true) {
      problems.push(`package-lock.json: ${quote(path)} is a link to a directory, not a registry package`);
      continue;
    }
    if (entry.inBundle === true) continue; // shipped inside its parent's tarball
    if (entry.resolved === undefined) {
      // npm leaves `resolved` out (omit-lockfile-registry-resolved) and fetches name@version from the registry.
      if (!entry.integrity) problems.push(`package-lock.json: ${quote(path)} has no integrity hash`);
      continue;
    }
    const origin = originOf(entry.resolved);
    if (!origin || !allowed.has(origin)) {
      const where = origin ? `host ${new URL(origin).host}` : 'no http(s) URL';
      problems.push(`package-lock.json: ${quote(path)} resolves outside the registry (${where})`);
    } else if (!entry.integrity) problems.push(`package-lock.json: ${quote(path)} has no integrity hash`);
  }
  return problems;
}

function originOf(resolved: string | undefined): string | undefined {
  if (!resolved) return undefined;
  try {
    const url = new URL(resolved);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
