import { stringify } from 'yaml';
import { html, type Html } from '../html.js';

/** Most characters of YAML one block shows (a 1 MiB ConfigMap must not make a 1 MiB page). */
export const YAML_LIMIT = 64 * 1024;

/**
 * `value` as YAML in a focusable `<pre>`, `managedFields` left out (the page lists the managers), cut
 * at `limit` characters with a note saying how much was left out and where to read it whole. The
 * text is escaped like every value. Pure.
 */
export function yamlBlock(value: unknown, opts: { limit?: number; whole: Html | string }): Html {
  const text = stringify(withoutManagedFields(value), { lineWidth: 0 });
  const limit = opts.limit ?? YAML_LIMIT;
  if (text.length <= limit) return html`<pre class="yaml" tabindex="0"><code>${text}</code></pre>`;
  return html`<pre class="yaml" tabindex="0"><code>${text.slice(0, limit)}</code></pre>
    <p class="note">
      Cut after ${count(limit)} of ${count(text.length)} characters; ${opts.whole} shows it whole.
    </p>`;
}

function withoutManagedFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('metadata' in value)) return value;
  const { metadata } = value as { metadata?: Record<string, unknown> };
  if (!metadata || !('managedFields' in metadata)) return value;
  const { managedFields: _m, ...rest } = metadata;
  return { ...value, metadata: rest };
}

function count(n: number): string {
  return n.toLocaleString('en');
}
