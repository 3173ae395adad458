/** One PolicyRule of a (Cluster)Role. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** Reading a kind: what health, drift, the caches and the watches do. */
export const READ = ['get', 'list', 'watch'] as const;
/** Writing objects by name: server-side apply (`patch`, `create` when absent), update, prune. */
export const WRITE = ['create', 'patch', 'update', 'delete'] as const;

const VERB_ORDER = [...READ, ...WRITE];

/**
 * Rules being collected for one Role or ClusterRole: grants of verbs on a resource of a group,
 * on every object or on named ones. Grants of the same resource and names merge their verbs;
 * `rules()` groups resources that share group, verbs and names into one rule and sorts the rules
 * (by group, resources, unnamed before named, verbs), so the same grants always render the same
 * rules.
 */
export class RuleSet {
  private readonly grants = new Map<string, Set<string>>();

  /** Grants `verbs` on `resource` of `group`; only on objects named `names` when given (never empty). */
  grant(group: string, resource: string, verbs: readonly string[], names?: readonly string[]): this {
    const key = JSON.stringify([group, resource, names ? [...new Set(names)].sort() : null]);
    const set = this.grants.get(key) ?? new Set<string>();
    for (const v of verbs) set.add(v);
    this.grants.set(key, set);
    return this;
  }

  get empty(): boolean {
    return this.grants.size === 0;
  }

  /** The grants as PolicyRules, merged and sorted (groups, then verbs, then names). */
  rules(): PolicyRule[] {
    const merged = new Map<string, PolicyRule>();
    for (const [key, verbSet] of this.grants) {
      const [group, resource, names] = JSON.parse(key) as [string, string, string[] | null];
      const verbs = [...verbSet].sort(byVerb);
      const ruleKey = JSON.stringify([group, verbs, names]);
      const rule = merged.get(ruleKey) ?? {
        apiGroups: [group],
        resources: [],
        verbs,
        ...(names ? { resourceNames: names } : {}),
      };
      rule.resources.push(resource);
      merged.set(ruleKey, rule);
    }
    const sortKey = (r: PolicyRule) =>
      [
        r.apiGroups[0],
        r.resources.join(','),
        r.resourceNames ? `1${r.resourceNames.join(',')}` : '0',
        r.verbs.map((v) => String(VERB_ORDER.indexOf(v as never) + 10)).join(''),
      ].join('\n');
    return [...merged.values()]
      .map((rule) => ({ ...rule, resources: rule.resources.sort() }))
      .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  }
}

function byVerb(a: string, b: string): number {
  const ia = VERB_ORDER.indexOf(a as (typeof VERB_ORDER)[number]);
  const ib = VERB_ORDER.indexOf(b as (typeof VERB_ORDER)[number]);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
}

/** The plural resource name Kubernetes' default RESTMapper derives from a kind (`ArgoCD` → `argocds`, `Policy` → `policies`). */
export function guessPlural(kind: string): string {
  const k = kind.toLowerCase();
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  return `${k}s`;
}
