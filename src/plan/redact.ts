import { createHash } from 'node:crypto';
import type { K8sObject } from '../core/object.js';

/**
 * A copy of a Secret with every `data`/`stringData` value replaced by `<redacted sha256:xxxxxxxx>`
 * (a short hash, so a change stays visible without revealing the value). Other kinds pass through.
 */
export function redactSecret<T extends K8sObject | undefined>(obj: T): T {
  if (!obj || obj.kind !== 'Secret' || obj.apiVersion !== 'v1') return obj;
  const copy = { ...obj } as K8sObject;
  for (const field of ['data', 'stringData'] as const) {
    const values = obj[field] as Record<string, string> | undefined;
    if (values)
      copy[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, redactedValue(v)]));
  }
  const annotations = obj.metadata.annotations;
  if (annotations?.['kubectl.kubernetes.io/last-applied-configuration']) {
    copy.metadata = {
      ...obj.metadata,
      annotations: { ...annotations, 'kubectl.kubernetes.io/last-applied-configuration': '<redacted>' },
    };
  }
  return copy as T;
}

export function redactedValue(value: string): string {
  return `<redacted sha256:${createHash('sha256').update(value).digest('hex').slice(0, 8)}>`;
}

/** True when a field path of an object carries secret material. */
export function isSecretPath(obj: Pick<K8sObject, 'kind' | 'apiVersion'>, pointer: string): boolean {
  return obj.kind === 'Secret' && obj.apiVersion === 'v1' && /^\/(data|stringData)(\/|$)/.test(pointer);
}
