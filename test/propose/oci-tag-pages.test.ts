import { describe, expect, it } from 'vitest';
import { nextTagsPage, readTagPages, type TagPage } from '../../src/propose/oci-tag-pages.js';

const page = { origin: 'https://registry.example', repository: 'charts/podinfo' };

/** A registry's pages as the distribution spec (v3) and Docker Hub serve them: `n` tags each, linked by `last`. */
function pagedRegistry(all: string[], size: number, seen: string[]) {
  return async (path: string): Promise<TagPage> => {
    seen.push(path);
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const n = Number(query.get('n') ?? size);
    const last = query.get('last');
    const from = last === null ? 0 : all.indexOf(last) + 1;
    const tags = all.slice(from, from + n);
    const more = from + n < all.length;
    return {
      tags,
      link: more
        ? `</v2/charts/podinfo/tags/list?n=${n}&last=${encodeURIComponent(tags.at(-1)!)}>; rel="next"`
        : null,
    };
  };
}

describe('readTagPages', () => {
  it('reads every page the registry links, in order, asking each by n and last', async () => {
    const all = Array.from({ length: 7 }, (_, i) => `1.0.${i}`);
    const seen: string[] = [];
    expect(await readTagPages(pagedRegistry(all, 3, seen), page)).toEqual(all);
    expect(seen).toEqual(['tags/list', 'tags/list?n=3&last=1.0.2', 'tags/list?n=3&last=1.0.5']);
  });

  it('asks for n on the first page when told, and one page without a link is the whole list', async () => {
    const seen: string[] = [];
    expect(await readTagPages(pagedRegistry(['a', 'b'], 5, seen), { ...page, pageSize: 50 })).toEqual([
      'a',
      'b',
    ]);
    expect(seen).toEqual(['tags/list?n=50']);
  });

  it('an absolute link to the registry itself is followed, with its own origin and port', async () => {
    const first: TagPage = {
      tags: ['1'],
      link: '<https://registry.example/v2/charts/podinfo/tags/list?last=1&n=1>; rel="next"',
    };
    expect(nextTagsPage(first.link, { ...page, previousLast: undefined })).toEqual({
      path: 'tags/list?n=1&last=1',
      last: '1',
    });
  });
});
