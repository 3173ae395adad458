import type { K8sObject } from '../core/object.js';
import { redactionTag } from '../core/redaction-key.js';

/**
 * A copy of a Secret with every `data`/`stringData` value replaced by `<redacted hmac:xxxxxxxx>`
 * (`redactedValue`: a short keyed hash, so a change stays visible without revealing the value).
 * Other kinds pass through.
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

/**
 * `<redacted hmac:xxxxxxxx>` of `value` under this process's redaction key (`redactionKey`): equal
 * values give equal tags within a run, and a reader without the key cannot confirm a guess.
 */
export function redactedValue(value: string): string {
  return redactionTag([value]);
}

/** True when a field path of an object carries secret material. */
export function isSecretPath(obj: Pick<K8sObject, 'kind' | 'apiVersion'>, pointer: string): boolean {
  return obj.kind === 'Secret' && obj.apiVersion === 'v1' && /^\/(data|stringData)(\/|$)/.test(pointer);
}

/**
 * Best-effort redaction of obvious secret material in free text (condition messages, event notes):
 * PEM private keys, `Bearer`/`Basic` credentials, `password|token|secret|apiKey|…` key-value pairs,
 * and the `data`/`stringData` values of a Secret rendered as JSON or YAML. Values become
 * `<redacted hmac:xxxxxxxx>` as in `src/plan/redact.ts`. It does not make arbitrary text safe:
 * callers pass text built from redacted values in the first place.
 */
export function redactText(text: string): string {
  let out = text.replace(
    /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
    '<redacted private key>',
  );
  out = out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 <redacted>');
  out = out.replace(
    /(?<![\w./-])(["']?[\w.-]*(?:password|passwd|secret|token|api[_-]?key|credentials?|private[_-]?key)[\w.-]*["']?\s*[:=]\s*)(?!<redacted)("[^"]*"|'[^']*'|[^\s,;}\]]+)/gi,
    (_m, key: string, value: string) => {
      const quote = /^["']/.test(value) ? value[0]! : '';
      return `${key}${quote}${redactedValue(quote ? value.slice(1, -1) : value)}${quote}`;
    },
  );
  if (/"kind"\s*:\s*"Secret"/.test(out))
    out = out.replace(
      /("(?:data|stringData)"\s*:\s*\{)([^{}]*)\}/g,
      (_m, open: string, body: string) =>
        `${open}${body.replace(/("[^"]*"\s*:\s*)"([^"]*)"/g, (_k, k: string, v: string) => `${k}"${redactedValue(v)}"`)}}`,
    );
  if (/\bkind:\s*Secret\b/.test(out))
    out = out.replace(
      /^(\s*)(data|stringData):[ \t]*\n((?:\1[ \t]+[^\n]*(?:\n|$))*)/gm,
      (_m, indent: string, field: string, body: string) =>
        `${indent}${field}:\n${body.replace(/^(\s+[^:\n]+:[ \t]*)(?!<redacted)(\S[^\n]*)$/gm, (_l, k: string, v: string) => `${k}${redactedValue(v)}`)}`,
    );
  return out;
}
