// One copy of the libraries Groundwork and the platform share, whatever imports them.
import type { Plugin } from 'esbuild';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.js';

/**
 * Libraries whose objects cross between Groundwork and the platform (constructs, tokens, `Lazy`
 * values): two copies in one bundle fail at synth ("can't render non-simple object of type
 * '_Lazy'"), so each is resolved from one place for every importer.
 */
export const SHARED_LIBRARIES = ['cdk8s', 'constructs'] as const;

/** Where the libraries may come from (real paths), in the order they win. */
export interface LibrarySources {
  /** The checkout: its own `node_modules` wins. */
  root: string;
  /** Directories holding a `node_modules`, searched after the checkout's (the dependency cache). */
  libraryRoots: readonly string[];
}

/**
 * The directory each shared library is resolved from: the checkout when its own `node_modules`
 * holds the package, else the first of `libraryRoots` that does, else Groundwork's install.
 * Looks only at `<dir>/node_modules/<name>`, never further up.
 */
export function sharedLibraryHomes(sources: LibrarySources): Map<string, string> {
  const homes = new Map<string, string>();
  for (const name of SHARED_LIBRARIES) {
    const has = (dir: string) => existsSync(join(dir, 'node_modules', name, 'package.json'));
    homes.set(name, [sources.root, ...sources.libraryRoots].find(has) ?? packageRoot);
  }
  // The running Groundwork: the synth child that runs the platform is its own.
  homes.set('groundwork-gitops', packageRoot);
  return homes;
}

/**
 * Resolves `cdk8s`, `constructs` (and their subpaths) from their one home (`sharedLibraryHomes`)
 * whoever imports them: Groundwork, the platform or a library such as cdk8s-plus with its peers;
 * and `groundwork-gitops` from the running Groundwork. Other imports are left to the next plugins.
 */
export function oneCopyOfShared(sources: LibrarySources): Plugin {
  const homes = sharedLibraryHomes(sources);
  const names = [...homes.keys()].map((n) => n.replace(/[-/]/g, '\\$&')).join('|');
  return {
    name: 'groundwork-one-copy',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${names})(/.*)?$`) }, async (args) => {
        // Our own and the fallback's inner resolutions: esbuild's own resolver answers them.
        if (args.pluginData === 'one-copy' || args.pluginData === 'fallback') return undefined;
        const name = /^[^/]+/.exec(args.path)![0];
        const resolved = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: homes.get(name)!,
          pluginData: 'one-copy',
        });
        return resolved.errors.length === 0 ? resolved : undefined;
      });
    },
  };
}
