import { describe, expect, it } from 'vitest';
import type { AccessAttributes } from '../../src/ui/access-attributes.js';
import { decideAccess } from '../../src/ui/decide-access.js';

/** An RBAC-like rule: `namespace` undefined is a ClusterRole binding (every namespace); `names` are resourceNames. */
interface Rule {
  verbs: string[];
  group: string;
  resource: string;
  namespace?: string;
  names?: string[];
}

/**
 * A fake authorizer with RBAC's matching (a fake of pure logic: the e2e asks the real apiserver):
 * `*` in a rule matches anything, a request for every namespace needs a cluster-wide rule, a rule
 * with names matches only requests that name one of them. Counts what it was asked.
 */
function authorizer(rules: Rule[]): {
  review: (a: AccessAttributes) => Promise<boolean>;
  asked: AccessAttributes[];
} {
  const asked: AccessAttributes[] = [];
  const review = (a: AccessAttributes) => {
    asked.push(a);
    return Promise.resolve(
      rules.some(
        (r) =>
          (r.verbs.includes(a.verb) || r.verbs.includes('*')) &&
          (r.group === '*' || r.group === a.group) &&
          (r.resource === '*' || r.resource === a.resource) &&
          (r.namespace === undefined || (a.namespace !== '' && r.namespace === a.namespace)) &&
          (!r.names || (a.name !== undefined && r.names.includes(a.name))),
      ),
    );
  };
  return { review, asked };
}

/** 5,000 ConfigMaps and Deployments over 50 namespaces, as the Objects page asks about them. */
const page: AccessAttributes[] = Array.from({ length: 5000 }, (_, i) => ({
  verb: 'get',
  group: i % 2 ? 'apps' : '',
  resource: i % 2 ? 'deployments' : 'configmaps',
  namespace: `ns-${Math.floor(i / 2) % 50}`,
}));

describe('decideAccess', () => {
  it('costs one review per resource for a reader allowed everywhere, whatever the object count', async () => {
    const { review, asked } = authorizer([{ verbs: ['get', 'list'], group: '*', resource: '*' }]);
    const d = await decideAccess(page, review);
    expect(asked).toHaveLength(2);
    expect(asked.every((a) => a.namespace === '')).toBe(true);
    expect(page.every((a) => d.allowed(a))).toBe(true);
    expect(d.unchecked).toBe(0);
  });

  it('asks namespace by namespace where every namespace is denied, and allows only those granted', async () => {
    const { review, asked } = authorizer([
      { verbs: ['get'], group: '', resource: 'configmaps', namespace: 'ns-2' },
    ]);
    const d = await decideAccess(page, review);
    // 2 resources everywhere, then 2 × 50 namespaces.
    expect(asked).toHaveLength(102);
    const allowed = page.filter((a) => d.allowed(a));
    expect(allowed).toHaveLength(50);
    expect(allowed.every((a) => a.namespace === 'ns-2' && a.resource === 'configmaps')).toBe(true);
    expect(d.allowed({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'ns-2' })).toBe(false);
    expect(d.allowed({ verb: 'list', group: '', resource: 'configmaps', namespace: 'ns-2' })).toBe(false);
  });

  it('asks one namespace directly when only one is needed', async () => {
    const { review, asked } = authorizer([
      { verbs: ['list'], group: '', resource: 'events', namespace: 'a' },
    ]);
    const need: AccessAttributes = { verb: 'list', group: '', resource: 'events', namespace: 'a' };
    const d = await decideAccess([need, need], review);
    expect(asked).toEqual([need]);
    expect(d.allowed(need)).toBe(true);
  });

  it('asks by name only where the namespace is denied (RBAC resourceNames)', async () => {
    const { review, asked } = authorizer([
      { verbs: ['get'], group: '', resource: 'configmaps', namespace: 'team-a', names: ['a'] },
    ]);
    const base: AccessAttributes = { verb: 'get', group: '', resource: 'configmaps', namespace: 'team-a' };
    const d = await decideAccess([base, { ...base, name: 'a' }, { ...base, name: 'b' }], review);
    expect(d.allowed({ ...base, name: 'a' })).toBe(true);
    expect(d.allowed({ ...base, name: 'b' })).toBe(false);
    expect(d.allowed(base)).toBe(false);
    expect(asked.map((a) => a.name ?? '-')).toEqual(['-', 'a', 'b']);

    const admin = authorizer([{ verbs: ['*'], group: '*', resource: '*' }]);
    await decideAccess([base, { ...base, name: 'a' }], admin.review);
    expect(admin.asked).toHaveLength(1);
  });

  it('denies past its review budget and says how many were not checked', async () => {
    const { review, asked } = authorizer([
      { verbs: ['get'], group: '', resource: 'configmaps', namespace: 'ns-0' },
    ]);
    const d = await decideAccess(page, review, { maxReviews: 10 });
    expect(asked).toHaveLength(10);
    expect(d.unchecked).toBe(92);
    // ns-0 came first within the budget; later namespaces were never asked and are denied.
    expect(d.allowed({ verb: 'get', group: '', resource: 'configmaps', namespace: 'ns-0' })).toBe(true);
    expect(d.allowed({ verb: 'get', group: '', resource: 'configmaps', namespace: 'ns-49' })).toBe(false);
  });

  it('denies what a failed review covers, and counts it unchecked', async () => {
    const d = await decideAccess([{ verb: 'get', group: '', resource: 'configmaps', namespace: 'a' }], () =>
      Promise.reject(new Error('apiserver down')),
    );
    expect(d.allowed({ verb: 'get', group: '', resource: 'configmaps', namespace: 'a' })).toBe(false);
    expect(d.unchecked).toBe(1);
  });

  it('keeps at most `concurrency` reviews in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await decideAccess(
      page,
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return false;
      },
      { concurrency: 3 },
    );
    expect(most).toBe(3);
  });
});

describe('decideAccess with known answers', () => {
  it('uses them outside the budget, so each reload checks further', async () => {
    const known = new Map<string, boolean>();
    const { review, asked } = authorizer([]);
    const keep = async (a: AccessAttributes) => {
      const ok = await review(a);
      known.set(JSON.stringify(a), ok);
      return ok;
    };
    const opts = { maxReviews: 40, known: (a: AccessAttributes) => known.get(JSON.stringify(a)) };
    const first = await decideAccess(page, keep, opts);
    expect(first.unchecked).toBe(62);
    const second = await decideAccess(page, keep, opts);
    expect(second.unchecked).toBe(22);
    const third = await decideAccess(page, keep, opts);
    expect(third.unchecked).toBe(0);
    expect(asked).toHaveLength(102);
  });
});
