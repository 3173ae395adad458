// The esbuild plugins that make a platform bundle behave as the unsandboxed module hooks do.
import type { Loader, Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../../core/package-root.js';
import { within } from './bundle-confine.js';

const LOADERS: Record<string, Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

/**
 * Keeps each module's own location inside the bundle: `import.meta.url`, `import.meta.dirname`,
 * `import.meta.filename`, and CommonJS `__dirname`/`__filename` name the original file, not the
 * bundle, so platform code that reads a file next to itself (`new URL('../files/motd',
 * import.meta.url)`) reads the same file as without the sandbox.
 */
export function ownLocations(located: Set<string>): Plugin {
  return {
    name: 'groundwork-own-locations',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const usesMeta = text.includes('import.meta');
        const usesDirname =
          /\b__(dirname|filename)\b/.test(text) && !/\b(const|let|var)\s+__(dirname|filename)\b/.test(text);
        if (!usesMeta && !usesDirname) return undefined;
        located.add(args.path);
        let contents = text;
        if (usesMeta)
          contents = contents
            .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
            .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
            .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
        if (usesDirname)
          contents = `var __dirname = ${JSON.stringify(dirname(args.path))}, __filename = ${JSON.stringify(args.path)};\n${contents}`;
        return { contents, loader: LOADERS[extname(args.path)] ?? 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

// Groundwork's reader of manifests it did not write, for cdk8s's `Yaml.load` in the bundle.
const MANIFEST_YAML = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? '../../core/manifest-yaml.ts' : '../../core/manifest-yaml.js',
    import.meta.url,
  ),
);

/**
 * cdk8s's `Include` (and `Yaml.load`) read their file by starting a Node child process, which the
 * sandbox forbids. In the bundle they read the file directly instead: a path relative to the
 * checkout (the child's working directory), or a `file:` URL. An http(s) URL is refused: synth
 * must give the same manifests for the same commit, so a remote file belongs in the repository.
 * The file is read as kubectl reads it (`includedDocuments`: YAML 1.1, `0444` is 292), not as
 * cdk8s's `yaml` 1.1 schema does (`1:30` is 90 there, `0o17` text).
 */
export function includeReadsFiles(): Plugin {
  const loader = `function loadurl(url) {
  if (/^[a-z][a-z0-9+.-]*:\\/\\//i.test(url) && !/^file:/i.test(url))
    throw new Error('Include of ' + url + ': synth reads no URLs, so that a commit always gives the same manifests; download the file into the repository and include it by path');
  return require('node:fs').readFileSync(/^file:/i.test(url) ? new URL(url) : url, 'utf-8');
}
function cdk8sLoadurlWithChildProcess(url) {`;
  return {
    name: 'groundwork-include-reads-files',
    setup(b) {
      b.onLoad({ filter: /[\\/]cdk8s[\\/]lib[\\/]yaml\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('function loadurl(url) {')) return undefined;
        const load = `static load(urlOrFile) {
        return require(${JSON.stringify(MANIFEST_YAML)}).includedDocuments(loadurl(urlOrFile));
    }
    static cdk8sLoad(urlOrFile) {`;
        return {
          contents: text.replace('function loadurl(url) {', loader).replace('static load(urlOrFile) {', load),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/**
 * Resolves what the platform cannot (no node_modules, or a library it does not have) from each of
 * `libraryRoots` in turn (directories holding a `node_modules`: the agent's dependency cache, the
 * preview's working tree), then from Groundwork.
 */
export function fallbackToGroundwork(libraryRoots: readonly string[] = []): Plugin {
  return {
    name: 'groundwork-fallback',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'fallback' || args.pluginData === 'one-copy' || args.path.startsWith('node:'))
          return undefined;
        const own = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'fallback',
        });
        if (own.errors.length === 0) return own;
        for (const dir of libraryRoots) {
          const found = await b.resolve(args.path, {
            kind: args.kind,
            resolveDir: dir,
            pluginData: 'fallback',
          });
          // Only from the root's own node_modules: esbuild also looks in the directories above it.
          if (found.errors.length === 0 && within(join(dir, 'node_modules'), found.path)) return found;
        }
        const fromGroundwork = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: packageRoot,
          pluginData: 'fallback',
        });
        return fromGroundwork.errors.length === 0 ? fromGroundwork : own;
      });
    },
  };
}

// Groundwork's recording `Helm` for the bundle: its sources from the sources, its build from dist/.
const CDK8S_HELM = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? '../helm/cdk8s-helm.ts' : '../helm/cdk8s-helm.js',
    import.meta.url,
  ),
);

/**
 * cdk8s's `Helm` writes a temporary file and starts `helm template` while platform code runs,
 * which the sandbox forbids. In the bundle, `import { Helm } from 'cdk8s'` is Groundwork's
 * recording `Helm` instead (`defineCdk8sHelm`, same props): the synth parent renders the chart
 * with the real helm after platform code has run (src/render/helm).
 */
export function helmRecords(): Plugin {
  const contents = [
    '"use strict";',
    'Object.defineProperty(exports, "__esModule", { value: true });',
    'const names_1 = require("./names");',
    `const recording = require(${JSON.stringify(CDK8S_HELM)});`,
    'exports.Helm = recording.defineCdk8sHelm(names_1.Names);',
  ].join('\n');
  return {
    name: 'groundwork-helm-records',
    setup(b) {
      b.onLoad({ filter: /[\\/]cdk8s[\\/]lib[\\/]helm\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('class Helm extends')) return undefined;
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
