// `node --import <this file>` (the synth child) and the first import of bin/groundwork.js (the CLI):
// TypeScript through tsx, then Groundwork's resolver for platform code (see resolve-hook.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, Module, register } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register as registerTsx } from 'tsx/esm/api';

/** Groundwork's package.json, found walking up (this file runs from src/ and from dist/src/). */
function packageJson() {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === 'groundwork-gitops') return file;
    if (dirname(dir) === dir) throw new Error("groundwork's package.json not found");
  }
}

const pkg = packageJson();
// The node_modules folder that holds Groundwork's own dependencies (nested in a global install,
// hoisted beside it in a local one): where platform code falls back to for what it lacks.
const ownModules = dirname(dirname(createRequire(pkg).resolve('cdk8s/package.json')));
// CommonJS packages (cdk8s-plus-*, jsii-built classes) `require` their peers: the same fallback,
// after the platform's own node_modules, through NODE_PATH, which CommonJS searches last.
const nodePath = (process.env.NODE_PATH ?? '').split(delimiter).filter(Boolean);
if (!nodePath.includes(ownModules)) {
  process.env.NODE_PATH = [...nodePath, ownModules].join(delimiter);
  Module._initPaths(); // re-reads NODE_PATH (the documented variable) for this process
}

registerTsx();
register('./resolve-hook.mjs', import.meta.url, {
  data: {
    parentURL: pathToFileURL(pkg).href,
    // In a git checkout, `groundwork-gitops` resolves to the TypeScript sources (exports condition).
    conditions: import.meta.url.includes('/dist/') ? [] : ['groundwork-source'],
  },
});
