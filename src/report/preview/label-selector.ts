import { isPlainObject } from '../../core/object.js';

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
