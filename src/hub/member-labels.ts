import { GroundworkError } from '../core/errors.js';
import { HUB_GROUP } from './hub-names.js';

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** Labels a member may carry at most (selection is by a few: region, tier, site). */
export const MAX_MEMBER_LABELS = 32;

/**
 * Why `key=value` is not a label the hub puts on a member, or undefined when it is: Kubernetes'
 * label syntax (an optional DNS prefix, a name of at most 63 characters, a value of at most 63),
 * and no key under `hub.groundwork.io/`, which the hub keeps for itself. Pure.
 */
export function memberLabelProblem(key: string, value: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash >= 0 ? [key.slice(0, slash), key.slice(slash + 1)] : [undefined, key];
  if (prefix !== undefined && (prefix.length > 253 || !PREFIX.test(prefix)))
    return `label key ${JSON.stringify(key.slice(0, 80))}: its prefix is not a DNS subdomain`;
  if (!NAME.test(name))
    return `label key ${JSON.stringify(key.slice(0, 80))} is not a label name (at most 63 letters, digits, -, _, .)`;
  if (prefix === HUB_GROUP || prefix?.endsWith(`.${HUB_GROUP}`))
    return `label key ${JSON.stringify(key.slice(0, 80))}: ${HUB_GROUP}/ is kept for the hub's own labels`;
  if (!VALUE.test(value))
    return `label ${key}: value ${JSON.stringify(value.slice(0, 80))} is not a label value (at most 63 letters, digits, -, _, .)`;
  return undefined;
}

/**
 * `region=eu,tier=canary` (or several such texts) as labels. Throws `InvalidFlag` naming `flag`
 * and the first bad pair. Pure.
 */
export function parseMemberLabels(texts: readonly string[], flag = '--labels'): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of texts.flatMap((t) => t.split(',')).filter((p) => p.trim() !== '')) {
    const eq = pair.indexOf('=');
    const [key, value] = eq < 0 ? [pair.trim(), ''] : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
    const problem =
      eq < 0 ? `${JSON.stringify(pair.slice(0, 80))} is not key=value` : memberLabelProblem(key, value);
    if (problem)
      throw new GroundworkError({
        code: 'InvalidFlag',
        subject: flag,
        message: problem,
        fix: 'write labels as key=value,key2=value2',
      });
    labels[key] = value;
  }
  if (Object.keys(labels).length > MAX_MEMBER_LABELS)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: flag,
      message: `${Object.keys(labels).length} labels: at most ${MAX_MEMBER_LABELS}`,
      fix: 'keep the labels waves select by (region, tier, site)',
    });
  return labels;
}
