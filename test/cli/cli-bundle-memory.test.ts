import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN_PACKAGE_ROOT } from '../harness/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { asciiOnly, BUNDLE_ID_PREFIX } = (await import(join(ROOT, 'scripts', 'bundle-cli.mjs'))) as {
  asciiOnly: (code: string) => string;
  BUNDLE_ID_PREFIX: string;
};
const work = mkdtempSync(join(tmpdir(), 'gw-bundle-memory-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * What a long-running command (the agent) holds of the CLI bundle for its whole life: the script's
 * source, once, as a one-byte string (scripts/bundle-cli.mjs `asciiOnly`, bin/bundled-cli.js).
 */
describe('the bundle as V8 holds it', () => {
  it('is written in ASCII: each other character as an escape that means the same', () => {
    const code = [
      'const html = (s, ...v) => s.map((x, i) => x + (v[i] ?? "")).join("");',
      'module.exports = [html`<td>—</td> · ${"a"} → b`, "é€", /[\ud800-￿]/.test("\uffff"), /[😀]/u.test("😀"), `x·`];',
    ].join('\n');
    const escaped = asciiOnly(code);
    expect(/[\u0080-\uffff]/.test(escaped)).toBe(false);
    const run = (text: string) => {
      const module = { exports: [] as unknown[] };
      new Function('module', text)(module);
      return module.exports;
    };
    expect(run(escaped)).toEqual(run(code));
    expect(run(escaped)).toEqual(['<td>—</td> · a → b', 'é€', true, true, 'x·']);
  });

  it('refuses a backslash before a non-ASCII character, whose escape would mean something else', () => {
    expect(() => asciiOnly('const a = "\\·";')).toThrow(/backslash before a non-ASCII character at 11/);
  });

  it("the built bundle is ASCII, and its tagged templates are the dashboard's html, which reads cooked strings", () => {
    const bundle = readFileSync(join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'main.cjs'), 'latin1');
    expect(/[\u0080-\uffff]/.test(bundle)).toBe(false);
    const html = readFileSync(join(ROOT, 'src', 'ui', 'html.ts'), 'utf8');
    expect(html).toContain('export function html(strings: TemplateStringsArray');
    expect(html).not.toMatch(/\.raw\b/);
  });

  it('is held once after loading: not also as the text the bundle was read from', () => {
    // A bundle of 4 MB of comment, loaded as bin/groundwork.js loads the real one, without a code
    // cache; the heap after a full GC must hold one copy of it, not two.
    const pkg = join(work, 'pkg');
    mkdirSync(join(pkg, 'dist', 'cli'), { recursive: true });
    const body = `exports.main = () => 0;\n/*${'x'.repeat(4 << 20)}*/\n`;
    writeFileSync(join(pkg, 'dist', 'cli', 'main.cjs'), `${BUNDLE_ID_PREFIX}${'a'.repeat(32)}\n${body}`);
    const loader = join(ROOT, 'bin', 'bundled-cli.js');
    const script = [
      'global.gc();',
      'const before = process.memoryUsage().heapUsed;',
      `const cli = require(${JSON.stringify(loader)}).loadBundledCli(${JSON.stringify(pkg)}, ['node', 'gw', 'agent'], { GROUNDWORK_CACHE_DIR: ${JSON.stringify(join(work, 'cache'))} });`,
      'global.gc();',
      'process.stdout.write(String(process.memoryUsage().heapUsed - before));',
      'cli.save();',
    ].join('\n');
    const grown = Number(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }));
    expect(grown).toBeGreaterThan(4 << 20);
    expect(grown).toBeLessThan(6 << 20);
    expect(readdirSync(join(work, 'cache', 'code-cache'))).toHaveLength(1);
  });
});
