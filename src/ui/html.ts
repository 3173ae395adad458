import escapeHtml from 'escape-html';

/**
 * Markup that is safe to put on a page as it is: built only by `html` (which escapes every value)
 * or by `trusted` (for the few fixed strings this module's callers write themselves). A plain
 * string is never markup: wherever one reaches a page it is escaped first.
 */
export class Html {
  /** @internal use `html` or `trusted` */
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What may be interpolated into `html`: text (escaped), numbers, markup, lists of them; nothing for null/undefined/false. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

/**
 * A tagged template that escapes every interpolated value with `escape-html` (`& < > " '`) unless
 * it is already `Html`; arrays are joined, `null`, `undefined` and `false` render nothing. Values
 * are escaped for element content and double-quoted attribute values only: never interpolate into
 * a tag name, an unquoted attribute, a `style`, an event handler or a URL's scheme (the pages do
 * none of these; links are built with `href`).
 *
 * @example
 * html`<td>${annotation}</td>`; // '<td>&lt;script&gt;…</td>' for a hostile annotation
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Markup written by this code base as a literal (never data): a fixed icon, a fixed fragment. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/**
 * A same-site URL path (`/` and each segment percent-encoded) with a query, to put in `href`
 * (escaped by `html` as any value): it always starts with a single `/` and never has a scheme, so
 * no `javascript:` or off-site link can be built from data.
 *
 * @example
 * href(['objects', id], { kind: 'Deployment' }); // '/objects/ns_web_apps_Deployment?kind=Deployment'
 */
export function href(segments: readonly string[], query: Record<string, string | undefined> = {}): string {
  const q = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  // Empty segments are dropped: `//host` would be a link to another site.
  const path = `/${segments
    .filter((s) => s !== '')
    .map((s) => encodeURIComponent(s))
    .join('/')}`;
  return q.length === 0 ? path : `${path}?${new URLSearchParams(q).toString()}`;
}
