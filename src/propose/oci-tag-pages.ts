/**
 * The next page of an OCI tag list (`GET /v2/<repository>/tags/list`), from the registry's `Link`
 * header, as the distribution spec describes it: `</v2/<repository>/tags/list?n=100&last=x>;
 * rel="next"`. The header is the registry's words, so this is the one builder of the next request:
 * only a link to the same repository's tag list is followed, and of its query only `n` and `last`
 * are kept (re-encoded), so a link can neither send the next request elsewhere nor add to it.
 */

/** The most pages and tags read of one repository (Docker Hub pages by 100: 200 pages). */
export const TAG_PAGES_MAX = 200;
export const TAGS_TOTAL_MAX = 20_000;
/** The longest `last` kept (a tag is at most 128 characters by the spec). */
const LAST_MAX = 256;

/** The path (relative to `/v2/<repository>/`) of the first page. */
function firstTagsPage(pageSize?: number): string {
  return pageSize === undefined ? 'tags/list' : `tags/list?${new URLSearchParams({ n: String(pageSize) })}`;
}

/**
 * The path (relative to `/v2/<repository>/`) and `last` of the page after the one whose `Link` header is
 * `link`, or undefined when there is none or the link is not one to follow: another origin than
 * the registry's (`page.origin`, as `https://host:port`; a relative link stays on it) or
 * repository, another endpoint, no `last`, or a `last` not after `previousLast` (a registry
 * that would page forever).
 */
export function nextTagsPage(
  link: string | null,
  page: { origin: string; repository: string; previousLast: string | undefined },
): { path: string; last: string } | undefined {
  const { repository, previousLast } = page;
  const target = nextLinkTarget(link);
  if (target === undefined) return undefined;
  let url: URL;
  try {
    // A relative reference resolves against a placeholder origin; an absolute one keeps its own.
    url = new URL(target, 'https://registry.invalid');
  } catch {
    return undefined;
  }
  if (url.origin !== 'https://registry.invalid' && url.origin !== page.origin) return undefined;
  if (url.pathname !== `/v2/${repository}/tags/list`) return undefined;
  const last = url.searchParams.get('last');
  if (!last || last.length > LAST_MAX) return undefined;
  if (previousLast !== undefined && last === previousLast) return undefined;
  const query = new URLSearchParams();
  const n = url.searchParams.get('n');
  if (n !== null && /^[1-9]\d{0,4}$/.test(n)) query.set('n', n);
  query.set('last', last);
  return { path: `tags/list?${query}`, last };
}

/** The target of the `rel="next"` entry of a `Link` header (RFC 8288), or undefined. */
function nextLinkTarget(link: string | null): string | undefined {
  if (!link || link.length > 4096) return undefined;
  for (const entry of link.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(entry);
    if (!m) continue;
    const params = m[2]!.split(';').map((p) => p.trim().toLowerCase());
    if (params.some((p) => p === 'rel="next"' || p === 'rel=next')) return m[1];
  }
  return undefined;
}

/** One page of a tag list as read: its tags (schema-checked by the reader) and its `Link` header. */
export interface TagPage {
  readonly tags: readonly string[];
  readonly link: string | null;
}

/**
 * Every tag of `repository`, reading page after page through `getPage(path)` (a GET under
 * `/v2/<repository>/`) as long as a page links a next one `nextTagsPage` accepts. Throws past
 * `TAG_PAGES_MAX` pages or `TAGS_TOTAL_MAX` tags: a list cut short would propose from part of it.
 */
export async function readTagPages(
  getPage: (path: string) => Promise<TagPage>,
  page: { origin: string; repository: string; pageSize?: number },
): Promise<string[]> {
  const tags: string[] = [];
  let next: { path: string; last: string | undefined } | undefined = {
    path: firstTagsPage(page.pageSize),
    last: undefined,
  };
  for (let count = 0; next !== undefined; count++) {
    if (count >= TAG_PAGES_MAX)
      throw new Error(`the tags of ${page.repository}: more than ${TAG_PAGES_MAX} pages`);
    const read = await getPage(next.path);
    tags.push(...read.tags);
    if (tags.length > TAGS_TOTAL_MAX)
      throw new Error(`the tags of ${page.repository}: more than ${TAGS_TOTAL_MAX} tags`);
    next = nextTagsPage(read.link, { ...page, previousLast: next.last });
  }
  return tags;
}
