import { idOf } from './object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from './object.js';
import { redactionTag } from './redaction-key.js';

// Secret values made safe to print, one home for both contracts: a Secret object's values
// (`redactSecret`: tagged with the object id and key, for diffs, the dashboard, the status, previews
// and bootstrap --print) and a bare value in free text (`redactedValue`, `redactText`: no object to
// salt with). Both tags are HMACs under this process's redaction key (`redactionTag`): equal inputs
// give equal tags within a run and under one key, and a reader without the key cannot test a guess.

/**
 * A copy of a core `Secret` safe to print: each value of `data` and `stringData` becomes
 * `<redacted hmac:xxxxxxxx>`, so a diff shows *that* a value changed and never what it is, and a
 * `kubectl.kubernetes.io/last-applied-configuration` annotation becomes `<redacted>`. The tag is
 * of the object id, the key and the value's bytes (`data` decoded from base64, so a value moved
 * between `data` and `stringData` keeps its tag); salting with id and key keeps equal values in
 * different Secrets or keys from showing equal tags. Every other object (and `undefined`) is
 * returned unchanged, the same reference.
 */
export function redactSecret<T extends K8sObject | undefined>(obj: T): T {
  if (!obj || obj.kind !== 'Secret' || splitApiVersion(obj.apiVersion).group !== '') return obj;
  const id = idOf(obj);
  const copy: K8sObject = { ...obj };
  for (const field of ['data', 'stringData'] as const) {
    const values = obj[field];
    if (!isPlainObject(values)) continue;
    copy[field] = Object.fromEntries(
      Object.entries(values).map(([key, value]) => {
        const bytes =
          field === 'data' && typeof value === 'string'
            ? Buffer.from(value, 'base64')
            : Buffer.from(String(value), 'utf8');
        return [key, redactionTag([id, key, bytes])];
      }),
    );
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
 * `<redacted hmac:xxxxxxxx>` of a bare `value` (free text has no object to salt with) under this
 * process's redaction key: equal values give equal tags within a run, and a reader without the key
 * cannot confirm a guess.
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
 * `<redacted hmac:xxxxxxxx>` (`redactedValue`). It does not make arbitrary text safe:
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
