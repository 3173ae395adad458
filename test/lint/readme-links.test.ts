import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The README's relative link targets (no scheme, no pure anchors), without their anchors. */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return [
    ...new Set(
      targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#')).map((t) => t.split('#')[0]!),
    ),
  ];
}

describe('the README shipped in the package', () => {
  it('links only files the package contains', () => {
    const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    const packed = (path: string) =>
      ['package.json', 'README.md', 'LICENSE'].includes(path) ||
      files.some((f) => path === f || path.startsWith(`${f.replace(/\/$/, '')}/`));
    const links = relativeLinks(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(links).toContain('docs/preview.md');
    for (const link of links) {
      expect(existsSync(join(root, link)), `${link} exists`).toBe(true);
      expect(packed(link), `${link} is in package.json "files"`).toBe(true);
    }
  });
});
