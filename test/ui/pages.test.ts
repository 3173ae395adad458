import { describe, expect, it } from 'vitest';
import { driftPage } from '../../src/ui/pages/drift.js';
import { historyPage } from '../../src/ui/pages/history.js';
import { objectPage } from '../../src/ui/pages/object.js';
import { PAGE_SIZE, ROWS_PER_BLOCK, objectsPage } from '../../src/ui/pages/objects.js';
import { openshiftPage } from '../../src/ui/pages/openshift.js';
import { overviewPage } from '../../src/ui/pages/overview.js';
import { HOSTILE, hostileDeployment, hostileSnapshot } from './fixtures.js';

const ESCAPED =
  '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;javascript:alert(3)';

/** Every tag of a page: what a browser would build elements from. */
function tags(markup: string): string[] {
  return [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b/g)].map((m) => m[1]!.toLowerCase());
}

describe('dashboard pages render hostile strings as text', () => {
  const s = hostileSnapshot();
  const pages: [string, string][] = [
    ['overview', overviewPage(s).markup],
    ['objects', objectsPage(s, { text: HOSTILE, kind: HOSTILE }).markup],
    [
      'object',
      objectPage(s, {
        row: s.objects[0]!,
        live: hostileDeployment(),
        events: [
          {
            namespace: 'shop',
            type: 'Warning',
            reason: HOSTILE,
            note: HOSTILE,
            count: 1,
            last: HOSTILE,
            source: HOSTILE,
          },
        ],
      }).markup,
    ],
    ['drift', driftPage(s).markup],
    ['history', historyPage(s).markup],
    ['openshift', openshiftPage(s).markup],
  ];

  it.each(pages)('%s: no script element, no event handler attribute, the value escaped', (name, markup) => {
    // The one script is the same-origin file in <head>; no element comes from data.
    expect(tags(markup).filter((t) => t === 'script')).toHaveLength(1);
    expect(markup).toMatch(/<script src="\/static\/app\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    expect(tags(markup)).not.toContain('img');
    const realTags = markup.match(/<[a-zA-Z][^>]*>/g) ?? [];
    // Attribute values are quoted and cannot hold a raw quote: what is left is names.
    expect(realTags.filter((t) => /\son[a-z]+=/i.test(t.replace(/"[^"]*"/g, '""')))).toEqual([]);
    expect(markup).not.toContain(HOSTILE);
    if (name !== 'openshift') expect(markup).toContain(ESCAPED);
  });

  it('shows the problems banner and the overview facts', () => {
    const markup = overviewPage(s).markup;
    expect(markup).toContain('Cannot see everything');
    expect(markup).toContain('1 drifted (0 missing, 1 modified, 0 extra)');
    expect(markup).toContain('1.5 s'); // the synth phase timing
    expect(markup).not.toContain('Unmanaged');
  });

  it('shows how many unmanaged objects the agent counted, without their namespaces', () => {
    const sync = s.syncs[s.selected!]!;
    const unmanaged = {
      count: 3,
      failOn: false,
      counts: [{ namespace: 'secret-ns', kind: 'ConfigMap', count: 3 }],
    };
    const counted = { ...s, syncs: [{ ...sync, status: { ...sync.status!, unmanaged } }], selected: 0 };
    const markup = overviewPage(counted).markup;
    expect(markup).toContain('3 object(s) Groundwork did not apply in its namespaces (informational;');
    expect(markup).not.toContain('secret-ns');
  });

  it('keeps a filter value in its input, escaped inside the attribute', () => {
    const markup = objectsPage(s, { text: HOSTILE }).markup;
    expect(markup).toContain(`value="${ESCAPED}"`);
  });

  it('lists the drifted field with its live value and the manager that wrote it', () => {
    const markup = driftPage(s).markup;
    expect(markup).toContain('data-drift="Deployment/shop/web"');
    expect(markup).toContain('href="/objects/shop_web_apps_Deployment"');
    expect(markup.match(/<tr data-drift/g)).toHaveLength(1);
  });

  it('says there is no drift when the status lists none', () => {
    const clean = { ...s, drift: [] };
    expect(driftPage(clean).markup).toContain('No drift');
  });
});

describe('the Objects page pages its rows', () => {
  const many = {
    ...hostileSnapshot(),
    problems: [],
    objects: Array.from({ length: 1203 }, (_, i) => ({
      id: `ns_o${i}__ConfigMap`,
      ref: { group: '', kind: 'ConfigMap', namespace: 'ns', name: `o${i}` },
      stage: 'resources' as const,
      health: { status: 'Healthy' as const, reason: 'Exists', message: '' },
    })),
  };
  const rowsOf = (markup: string) => (markup.match(/<td>ConfigMap<\/td>/g) ?? []).length;

  it('shows PAGE_SIZE rows a page, the rest on the next pages, with links kept filtered', () => {
    // Whitespace collapsed, as the browser shows it.
    const first = objectsPage(many, { namespace: 'ns' }).markup.replace(/\s+/g, ' ');
    expect(rowsOf(first)).toBe(PAGE_SIZE);
    expect(first).toContain('1203 of 1203 objects, 1-500 shown');
    expect(first).toContain('href="/objects?namespace=ns&amp;page=2"');
    const last = objectsPage(many, { namespace: 'ns' }, 3).markup.replace(/\s+/g, ' ');
    expect(rowsOf(last)).toBe(1203 - 2 * PAGE_SIZE);
    expect(last).toContain('Page 3 of 3');
    expect(last).not.toContain('>Next<');
  });

  it('splits a stage into tables of ROWS_PER_BLOCK rows, each naming its columns, the rows in order', () => {
    const markup = objectsPage(many, {}).markup;
    const tables = markup.match(/<table[^>]*>/g) ?? [];
    expect(tables).toHaveLength(Math.ceil(PAGE_SIZE / ROWS_PER_BLOCK));
    expect(tables[0]).toContain('class="objects"');
    expect(tables.slice(1).every((t) => t.includes('class="objects more"'))).toBe(true);
    expect(tables[1]).toContain(
      `aria-label="resources, objects ${ROWS_PER_BLOCK + 1}-${2 * ROWS_PER_BLOCK}"`,
    );
    expect(markup.match(/<th scope="col">Name<\/th>/g)).toHaveLength(tables.length);
    expect(markup.match(/<div class="rows">/g)).toHaveLength(tables.length);
    const names = [...markup.matchAll(/>(o\d+)<\/a>/g)].map((m) => m[1]);
    expect(names).toEqual(Array.from({ length: PAGE_SIZE }, (_, i) => `o${i}`));
  });

  it('clamps a page out of range or not a number', () => {
    expect(objectsPage(many, {}, 99).markup.replace(/\s+/g, ' ')).toContain('Page 3 of 3');
    expect(objectsPage(many, {}, Number.NaN).markup.replace(/\s+/g, ' ')).toContain('Page 1 of 3');
  });
});
