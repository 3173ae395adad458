import { isScalar, type Document, type Scalar } from 'yaml';

/** The syntax of a SOPS file or its plaintext: sops picks it from the file name. */
export type SopsFormat = 'yaml' | 'json';

/** sops's store for a file name: JSON for `.json`, else YAML (Groundwork reads no other store). */
export function formatOf(file: string): SopsFormat {
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

/**
 * A document's text in `format`, keys in document order (also keys that look like numbers, which
 * a JavaScript object would move first). YAML keeps no line width and quotes a `sops.lastmodified`
 * time, as sops writes it (go-yaml reads an unquoted RFC 3339 time as a timestamp, not a string);
 * JSON is indented by four spaces, as sops writes it. Comments are emitted as the document holds
 * them: the callers strip or refuse them.
 */
export function emitDocument(doc: Document, format: SopsFormat): string {
  if (format === 'json') return `${jsonText(doc.toJS({ mapAsMap: true, maxAliasCount: 0 }), '')}\n`;
  const time = doc.getIn(['sops', 'lastmodified'], true);
  if (isScalar(time)) (time as Scalar).type = 'QUOTE_DOUBLE';
  return doc.toString({ lineWidth: 0 });
}

function jsonText(value: unknown, indent: string): string {
  const inner = `${indent}    `;
  if (value instanceof Map) {
    if (!value.size) return '{}';
    const items = [...value].map(([k, v]) => `${inner}${JSON.stringify(String(k))}: ${jsonText(v, inner)}`);
    return `{\n${items.join(',\n')}\n${indent}}`;
  }
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((v) => `${inner}${jsonText(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  return JSON.stringify(value ?? null);
}
