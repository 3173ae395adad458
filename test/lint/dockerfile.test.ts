import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOOL_RECIPES } from '../../src/tools/recipes.js';

// No image is built here: no container registry (for the node base image) is reachable from this
// machine. What can be checked without one is that the Dockerfile builds from this repository the
// way the install e2e test installs it, and copies only what exists.
const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('Dockerfile', () => {
  it('copies only paths that exist in the build context (or come from the build stage)', () => {
    const copies = instructions.filter((l) => l.startsWith('COPY '));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const parts = copy.split(/\s+/).slice(1);
      if (parts[0]!.startsWith('--from=')) continue;
      for (const source of parts.slice(0, -1)) expect(existsSync(join(root, source)), copy).toBe(true);
    }
  });

  it('installs the packed npm package globally and runs the groundwork command', () => {
    expect(instructions).toContain(
      'RUN npm ci --no-audit --no-fund && mkdir /pkg && npm pack --pack-destination /pkg',
    );
    expect(instructions.some((l) => /^RUN npm install --global .*groundwork-gitops-\*\.tgz/.test(l))).toBe(
      true,
    );
    expect(instructions).toContain('ENTRYPOINT ["groundwork"]');
    expect(instructions.some((l) => l.startsWith('USER ') && !l.startsWith('USER root'))).toBe(true);
  });

  it('carries helm, kustomize and sops at the releases the product pins, named by GROUNDWORK_<TOOL>', () => {
    for (const name of ['helm', 'kustomize', 'sops'] as const) {
      const recipe = TOOL_RECIPES[name];
      expect(dockerfile, name).toContain(`${recipe.pkg}@${recipe.version}`);
      expect(dockerfile, name).toContain(`${recipe.envVar}=/usr/local/bin/${name}`);
      for (const flag of recipe.ldflags) expect(dockerfile, name).toContain(flag);
    }
    expect(dockerfile).toContain(`GOTOOLCHAIN=${TOOL_RECIPES.kustomize.toolchain}`);
  });

  it('keeps dependencies and build output out of the build context', () => {
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist']));
  });

  it('packs what the runtime needs: the package.json files list names the compiled code and its data', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      files: string[];
      bin: Record<string, string>;
    };
    expect(pkg.files).toEqual(
      expect.arrayContaining(['bin', 'dist/src', 'data', 'crds', 'templates', 'LICENSE']),
    );
    expect(pkg.bin).toEqual({ groundwork: 'bin/groundwork.js' });
  });
});
