import type { LabelSelector } from '../core/label-selector.js';
import { LABEL_KEY, LABEL_VALUE } from '../project/rollout-config.js';

/** Bounds of the Fleet page's `?selector=`: longer or more terms are refused, not cut. */
export const FLEET_SELECTOR_LIMITS = { chars: 1024, terms: 16 } as const;

/** A parsed `?selector=`: the selector, or why it is refused (the page says so; nothing is filtered). */
export type FleetSelectorResult =
  | { readonly ok: true; readonly selector: LabelSelector; readonly text: string }
  | { readonly ok: false; readonly problem: string };

const TERM = /^(!?)([^=!]+?)\s*(?:(==|=|!=)\s*(.*))?$/;

/**
 * Parses the Fleet page's label selector query, strictly: comma-separated terms `key=value`
 * (`==` too), `key!=value`, `key` (it exists) and `!key` (it does not), keys and values as
 * Kubernetes allows them (`LABEL_KEY`, `LABEL_VALUE`), at most 16 terms and 1,024 characters.
 * Anything else is refused with a reason that quotes nothing of the input (the page may show it
 * whole, escaped, beside it). An absent or empty query selects every member. Pure.
 *
 * @example
 * parseFleetSelector('region=eu,!canary') // ok: matchLabels {region: eu}, DoesNotExist canary
 */
export function parseFleetSelector(query: string | null | undefined): FleetSelectorResult {
  const text = (query ?? '').trim();
  if (text === '') return { ok: true, selector: {}, text: '' };
  if (text.length > FLEET_SELECTOR_LIMITS.chars)
    return { ok: false, problem: `longer than ${FLEET_SELECTOR_LIMITS.chars} characters` };
  const terms = text.split(',').map((t) => t.trim());
  if (terms.length > FLEET_SELECTOR_LIMITS.terms)
    return { ok: false, problem: `more than ${FLEET_SELECTOR_LIMITS.terms} terms` };
  const matchLabels: Record<string, string> = {};
  const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
  for (const [i, term] of terms.entries()) {
    const m = TERM.exec(term);
    const where = `term ${i + 1}`;
    if (!m) return { ok: false, problem: `${where}: expected key=value, key!=value, key or !key` };
    const [, not, rawKey, op, rawValue] = m;
    const key = rawKey!.trim();
    if (!LABEL_KEY.test(key) || key.length > 317) return { ok: false, problem: `${where}: not a label key` };
    if (op === undefined) {
      matchExpressions.push({ key, operator: not ? 'DoesNotExist' : 'Exists' });
      continue;
    }
    const value = rawValue!.trim();
    if (not) return { ok: false, problem: `${where}: "!" only goes before a key alone` };
    if (!LABEL_VALUE.test(value) || value.length > 63)
      return { ok: false, problem: `${where}: not a label value` };
    if (op === '!=') matchExpressions.push({ key, operator: 'NotIn', values: [value] });
    else if (matchLabels[key] !== undefined && matchLabels[key] !== value)
      return { ok: false, problem: `${where}: ${key} is already required to be another value` };
    else matchLabels[key] = value;
  }
  return {
    ok: true,
    selector: {
      ...(Object.keys(matchLabels).length > 0 ? { matchLabels } : {}),
      ...(matchExpressions.length > 0 ? { matchExpressions } : {}),
    },
    text,
  };
}
