/** A Kubernetes `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
    values?: string[];
  }[];
}

/** True when the selector selects nothing in particular (`{}`), which the MCO refuses for pools. */
export function selectsEverything(selector: LabelSelector | undefined): boolean {
  return (
    Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0
  );
}

/** `LabelSelectorAsSelector(...).Matches`: every label and every expression must hold. Unknown operators match nothing. */
export function matchesSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> = {},
): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(value as string)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(value as string)
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

/** The selector as `labels.Selector.String()` prints it: requirements sorted by key, `k=v`, `k in (a,b)`, `!k`. */
export function formatSelector(selector: LabelSelector): string {
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    const text =
      e.operator === 'In'
        ? `${e.key} in (${values})`
        : e.operator === 'NotIn'
          ? `${e.key} notin (${values})`
          : e.operator === 'Exists'
            ? e.key
            : `!${e.key}`;
    reqs.push({ key: e.key, text });
  }
  return reqs
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((r) => r.text)
    .join(',');
}
