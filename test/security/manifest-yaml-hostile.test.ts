// Chart output, kustomize output and included files are written by the repository (or a chart's
// author): the manifest reader stays bounded and keeps its objects plain whatever they hold.
import { describe, expect, it } from 'vitest';
import { loadManifestYaml } from '../../src/core/manifest-yaml.js';
import { parseRendered } from '../../src/render/recorded/rendered-objects.js';

const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\ndata:\n${data}`;

describe('the manifest reader against hostile YAML', () => {
  it('stops a merge bomb (lists of merges of merges) at 100000 merged keys, before it grows', () => {
    const lines = [`  l0: &l0 {${Array.from({ length: 50 }, (_, i) => `k${i}: ${i}`).join(', ')}}`];
    for (let i = 1; i < 30; i++)
      lines.push(`  l${i}: &l${i}\n    <<: [${Array.from({ length: 100 }, () => `*l${i - 1}`).join(', ')}]`);
    expect(() => loadManifestYaml(configMap(`${lines.join('\n')}\n`))).toThrow(/more than 100000 keys/);
  });

  it('walks shared aliases once: a billion laughs with a merge key in it is read at once', () => {
    const lines = ['  l0: &l0 [a]', '  m: {<<: {x: 1}}'];
    for (let i = 1; i < 40; i++)
      lines.push(`  l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
    const read = loadManifestYaml(configMap(`${lines.join('\n')}\n`));
    expect((read.documents[0] as { data: { m: unknown } }).data.m).toEqual({ x: 1 });
  });

  it('keeps a `__proto__` key an own key, through a merge too, and pollutes no prototype', () => {
    const read = loadManifestYaml(configMap('  a: &a {"__proto__": {polluted: 1}}\n  b:\n    <<: *a\n'));
    const b = (read.documents[0] as { data: { b: Record<string, unknown> } }).data.b;
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    expect(Object.keys(b)).toEqual(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses nesting past 100 levels as a document that is not YAML, quoting none of it', () => {
    const deep = `${'['.repeat(200)}SECRET-TEXT${']'.repeat(200)}`;
    const parsed = parseRendered(`# Source: c/templates/a.yaml\n${deep}\n`);
    expect(parsed.objects).toEqual([]);
    expect(parsed.problems).toHaveLength(1);
    expect(JSON.stringify(parsed.problems)).not.toContain('SECRET-TEXT');
  });

  it('never names the merge marker it uses inside, whatever the text holds', () => {
    const read = loadManifestYaml(configMap('  a: "\\0merge-0000000000000000:0"\n  b: {<<: {x: 1}}\n'));
    expect((read.documents[0] as { data: unknown }).data).toEqual({
      a: '\u0000merge-0000000000000000:0',
      b: { x: 1 },
    });
  });
});
