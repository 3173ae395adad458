import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * What reads cluster data without parsing it (STYLE.md: "parse cluster data once at the edge with a
 * schema"). The simulators are left out: they are a second, independent opinion that talks to a
 * server they set up, not product code.
 */
const RULES: { name: string; pattern: RegExp; where: (file: string) => boolean }[] = [
  {
    name: 'an unchecked KubeClient.request<T> (pass { schema } instead)',
    pattern: /\.request<[^>(]/,
    where: (f) => !f.startsWith('dev/'),
  },
  {
    name: 'a cast of an object spec or status (parse it with its kind schema)',
    pattern: /\.(spec|status)\b(\s*\?\?\s*\{\s*\})?\)?\s+as\s+/,
    where: (f) => !f.startsWith('dev/'),
  },
  {
    name: 'a JSON.parse(...) cast in the client (use parseBody with a schema)',
    pattern: /JSON\.parse\([^;]*\)\s+as\s+/,
    where: (f) => f.startsWith('cluster/'),
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `file:line: rule` for every line of src that breaks a rule. */
function offences(): string[] {
  const out: string[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const rule of RULES.filter((r) => r.where(file)))
      lines.forEach((line, i) => {
        if (rule.pattern.test(line)) out.push(`src/${file}:${i + 1}: ${rule.name}`);
      });
  }
  return out;
}

describe('cluster data is parsed, not cast', () => {
  it.each([
    // The forms this rule replaced (issue 20), each of which must be caught:
    ['const spec = (pool.spec ?? {}) as {', 1],
    ['const paused = (pool.spec as { paused?: boolean } | undefined)?.paused === true;', 1],
    ['const installed = (live?.status as { installedCSV?: string } | undefined)?.installedCSV;', 1],
    ['const status = (pm.status ?? {}) as PackageManifestStatus;', 1],
    ["const page = await client.request<{ items: K8sObject[] }>('GET', path);", 0],
    ['if (status >= 200) return (text ? JSON.parse(text) : undefined) as T;', 2],
    // and forms that are fine:
    ["const page = await client.request('GET', path, { schema: listPageSchema });", -1],
    ['const paused = pool.spec?.paused === true;', -1],
    ["const kind = typeof spec.kind === 'string' ? spec.kind : undefined;", -1],
  ])('%s -> rule %i', (line, rule) => {
    const hits = RULES.map((r, i) => (r.pattern.test(line) ? i : -1)).filter((i) => i >= 0);
    expect(hits).toEqual(rule < 0 ? [] : [rule]);
  });

  it('holds for every source file', () => {
    expect(offences()).toEqual([]);
  });
});
