import { isPlainObject } from './object.js';

/** A Kubernetes `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
    values?: string[];
  }[];
}

/**
 * Whether `labels` match a Kubernetes `LabelSelector` (`matchLabels` and `matchExpressions`, all
 * terms ANDed). `In` and `NotIn` need values, `Exists` and `DoesNotExist` take none (as the API
 * server validates); `NotIn` also matches when the key is absent. An empty selector (`{}`) matches
 * everything; an absent one (`undefined`/`null`) and a malformed one match nothing.
 *
 * @example
 * matchesLabelSelector({ role: 'worker' }, { matchExpressions: [{ key: 'role', operator: 'In', values: ['worker', 'infra'] }] }) // true
 */
export function matchesLabelSelector(labels: Readonly<Record<string, string>>, selector: unknown): boolean {
  if (!isPlainObject(selector)) return false;
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== undefined) {
    if (!isPlainObject(matchLabels)) return false;
    for (const [key, value] of Object.entries(matchLabels)) if (labels[key] !== value) return false;
  }
  if (matchExpressions !== undefined) {
    if (!Array.isArray(matchExpressions)) return false;
    for (const expr of matchExpressions) if (!matchesExpression(labels, expr)) return false;
  }
  return true;
}

function matchesExpression(labels: Readonly<Record<string, string>>, expr: unknown): boolean {
  if (!isPlainObject(expr) || typeof expr.key !== 'string') return false;
  const values = Array.isArray(expr.values)
    ? expr.values.filter((v): v is string => typeof v === 'string')
    : [];
  const has = Object.hasOwn(labels, expr.key);
  switch (expr.operator) {
    case 'In':
      return values.length > 0 && has && values.includes(labels[expr.key]!);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(labels[expr.key]!));
    case 'Exists':
      return values.length === 0 && has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    default:
      return false;
  }
}

/** True when the selector selects nothing in particular (`{}`), which the MCO refuses for pools. */
export function selectsEverything(selector: LabelSelector | undefined): boolean {
  return (
    Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0
  );
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
