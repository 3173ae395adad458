import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The items of a LIST, completed with apiVersion and kind (`listWithVersion`), share one hidden
 * class, as the objects of the page do: a cache of 20,000 live objects is made of them. Asked of V8
 * itself in a Node of its own (`%HaveSameMap`, natives syntax); a spread copy of each item gave
 * almost every one a class of its own.
 */
describe('the items of a LIST', () => {
  it('share one hidden class once completed', () => {
    const script = `
      import { listWithVersion } from ${JSON.stringify(`${ROOT}src/cluster/list.ts`)};
      const item = (i) => ({ metadata: { name: 'c' + i, namespace: 'n' + (i % 7), uid: 'u' + i,
        resourceVersion: String(i), managedFields: [{ manager: 'm', operation: 'Apply', fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:index': {} } } }] }, data: { index: String(i) } });
      const pages = [0, 1].map((p) => JSON.stringify({ metadata: { resourceVersion: '9', continue: p ? '' : 'next' },
        items: Array.from({ length: 1000 }, (_, i) => item(p * 1000 + i)) }));
      let n = 0;
      const client = { request: async (_m, _p, o) => o.schema.parse(JSON.parse(pages[n++])) };
      const info = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
      const { items } = await listWithVersion(client, info, undefined);
      const classes = [];
      for (const o of items) if (!classes.some((c) => %HaveSameMap(c, o))) classes.push(o);
      const whole = items.every((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap');
      process.stdout.write(JSON.stringify({ items: items.length, classes: classes.length, whole }));
    `;
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ items: 2000, classes: 1, whole: true });
  });
});
