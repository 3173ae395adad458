import { isMap, isPair, isScalar, isSeq, parseDocument, Scalar } from 'yaml';

/** A string scalar of a YAML file: where its source text is, its value, and the key path to it. */
export interface YamlScalar {
  /** Offset of the scalar's first character (its quote, when quoted). */
  readonly start: number;
  /** Offset just past its last character (the closing quote), before any comment. */
  readonly end: number;
  readonly value: string;
  readonly type: Scalar.Type | undefined;
  /** Keys and indexes from the root: `['kepler', 'pin']`, `['charts', 0, 'version']`. */
  readonly path: readonly (string | number)[];
}

/**
 * The string scalars of a YAML document (the first document of `text`) that are mapping values or
 * sequence items; keys are not listed. Throws when the text is
 * not YAML. Pure.
 */
export function yamlScalars(text: string): YamlScalar[] {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new Error(`not YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const out: YamlScalar[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (isMap(node)) {
      for (const item of node.items)
        if (isPair(item)) {
          const key = isScalar(item.key) ? String(item.key.value) : '?';
          walk(item.value, [...path, key]);
        }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
    else if (isScalar(node) && node.range && typeof node.value === 'string')
      out.push({ start: node.range[0], end: node.range[1], value: node.value, type: node.type, path });
  };
  walk(doc.contents, []);
  return out;
}

/**
 * The source text of `value` as a YAML scalar in the style of the one it replaces: plain when the
 * old one was plain and the new text reads back as the same string (`4.16.21`, a URL, a digest;
 * never `1.10`, a number), single-quoted when it was single-quoted, otherwise double-quoted (JSON escaping, which
 * YAML reads). Pure.
 */
export function scalarText(value: string, style: Scalar.Type | undefined): string {
  if (style === Scalar.QUOTE_SINGLE) return `'${value.replace(/'/g, "''")}'`;
  if ((style === Scalar.PLAIN || style === undefined) && /^[A-Za-z0-9][A-Za-z0-9._+\-:/@]*$/.test(value)) {
    const back = parseDocument(`k: ${value}`).get('k', true);
    if (isScalar(back) && back.value === value) return value;
  }
  return JSON.stringify(value);
}
