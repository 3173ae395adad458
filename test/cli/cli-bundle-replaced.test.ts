import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN_PACKAGE_ROOT } from '../harness/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { REPLACED } = (await import(join(ROOT, 'scripts', 'bundle-cli.mjs'))) as {
  REPLACED: { importer: string[]; path: string; contents: string }[];
};

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * The CLI bundle replaces modules its packages import but never use (scripts/bundle-cli.mjs,
 * `REPLACED`). These hold the reasons true, so a new use or a library upgrade cannot silently
 * meet a replaced module.
 */
describe('modules the CLI bundle replaces', () => {
  it('names each one once, by the package that imports it', () => {
    expect(REPLACED.map((r) => `${r.importer.join('/')} ${r.path}`)).toEqual([
      'node-fetch/lib whatwg-url',
      '@kubernetes/client-node/dist ./gen/index.js',
      'zod/v4 ../locales/index.js',
    ]);
  });

  it("node-fetch uses whatwg-url only as the fallback of Node's own URL", () => {
    for (const file of ['index.js', 'index.mjs']) {
      const text = readFileSync(join(ROOT, 'node_modules', 'node-fetch', 'lib', file), 'utf8');
      const uses = text.split('\n').filter((l) => /whatwgUrl|whatwg-url/.test(l));
      expect(uses.length).toBe(3);
      expect(uses.filter((l) => /Url\.URL \|\| whatwgUrl\.URL;/.test(l))).toHaveLength(2);
    }
  });

  it("Groundwork's code never reads zod's locales (the bundle holds English only)", () => {
    // `z.locales`, `core.locales`, an import of `zod/locales` or of `{ locales }` from zod.
    const use = /\b(z|core)\.locales\b|zod\/(v4\/)?locales|\{[^}]*\blocales\b[^}]*\}\s*from\s*['"]zod/;
    const readers = sources(join(ROOT, 'src')).filter((f) => use.test(readFileSync(f, 'utf8')));
    expect(use.test('z.config(z.locales.de());')).toBe(true);
    expect(readers).toEqual([]);
  });

  it('zod imports its English messages on their own, which the replacement keeps', () => {
    const schemas = readFileSync(join(ROOT, 'node_modules', 'zod', 'v4', 'classic', 'schemas.js'), 'utf8');
    expect(schemas).toContain('import en from "../locales/en.js";');
    expect(REPLACED[2]!.contents).toBe("export { default as en } from './en.js';");
  });

  it("the Kubernetes client's KubeConfig takes only createConfiguration and ServerConfiguration from its generated index", () => {
    const dist = join(ROOT, 'node_modules', '@kubernetes', 'client-node', 'dist');
    const config = readFileSync(join(dist, 'config.js'), 'utf8');
    const fromIndex = [...config.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/gen\/index\.js'/g)];
    expect(fromIndex).toHaveLength(1);
    expect(
      fromIndex[0]![1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    ).toEqual(['createConfiguration', 'ServerConfiguration']);
    expect(config.match(/\.\/gen\//g)).toHaveLength(1);
    // Where the replacement takes them from, as the index itself does.
    const index = readFileSync(join(dist, 'gen', 'index.js'), 'utf8');
    expect(index).toContain('export { createConfiguration } from "./configuration.js";');
    expect(index).toContain('export * from "./servers.js";');
    expect(readFileSync(join(dist, 'gen', 'servers.js'), 'utf8')).toContain(
      'export class ServerConfiguration',
    );
  });

  it('src/ imports the Kubernetes client only by its KubeConfig file, never by the package (whose index loads every API model)', () => {
    const byPackage = sources(join(ROOT, 'src')).filter((f) =>
      /from '@kubernetes\/client-node'/.test(readFileSync(f, 'utf8')),
    );
    expect(byPackage).toEqual([]);
  });

  it('the built bundle holds none of the API models', () => {
    const bundle = readFileSync(join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'main.cjs'), 'utf8');
    expect(bundle).toContain('client-node/dist/config.js');
    expect(bundle).not.toContain('getAttributeTypeMap');
  });
});
