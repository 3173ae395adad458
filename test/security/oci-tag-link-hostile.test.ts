// A registry's Link header names the next page of a tag list (propose reads every version a chart
// has): registry-controlled text reaching a URL. nextTagsPage is the one builder of that request;
// these are the links a hostile or broken registry can send.
import { describe, expect, it } from 'vitest';
import { nextTagsPage, readTagPages, TAG_PAGES_MAX } from '../../src/propose/oci-tag-pages.js';

const page = { origin: 'https://registry.example', repository: 'charts/podinfo', previousLast: undefined };
const next = (link: string | null, previousLast?: string) => nextTagsPage(link, { ...page, previousLast });

describe('the next page of a tag list, from a hostile Link header', () => {
  it.each([
    ['another host', '<https://evil.example/v2/charts/podinfo/tags/list?last=a>; rel="next"'],
    [
      'the same host on another port',
      '<https://registry.example:8443/v2/charts/podinfo/tags/list?last=a>; rel="next"',
    ],
    [
      'plain http to the same host',
      '<http://registry.example/v2/charts/podinfo/tags/list?last=a>; rel="next"',
    ],
    ['a protocol-relative host', '<//evil.example/v2/charts/podinfo/tags/list?last=a>; rel="next"'],
    ['another repository', '</v2/charts/other/tags/list?last=a>; rel="next"'],
    ['another endpoint', '</v2/charts/podinfo/manifests/latest?last=a>; rel="next"'],
    ['a path that climbs out', '</v2/charts/podinfo/../../_catalog?last=a>; rel="next"'],
    ['no last', '</v2/charts/podinfo/tags/list?n=10>; rel="next"'],
    ['a last longer than any tag', `</v2/charts/podinfo/tags/list?last=${'a'.repeat(300)}>; rel="next"`],
    ['a link that is not rel=next', '</v2/charts/podinfo/tags/list?last=a>; rel="prev"'],
    ['no angle brackets', '/v2/charts/podinfo/tags/list?last=a; rel="next"'],
    ['a header past 4 KiB', `</v2/charts/podinfo/tags/list?last=a>; rel="next"${' '.repeat(5000)}`],
  ])('%s: not followed', (_what, link) => {
    expect(next(link)).toBeUndefined();
  });

  it('keeps only n and last, re-encoded: a link cannot add to the request', () => {
    const built = next(
      '</v2/charts/podinfo/tags/list?last=a%26scope%3Dpush&n=10&scope=push&access_token=x>; rel="next"',
    );
    expect(built).toEqual({ path: 'tags/list?n=10&last=a%26scope%3Dpush', last: 'a&scope=push' });
    expect(next('</v2/charts/podinfo/tags/list?last=a&n=-1>; rel="next"')?.path).toBe('tags/list?last=a');
    expect(next('</v2/charts/podinfo/tags/list?last=a&n=9999999>; rel="next"')?.path).toBe(
      'tags/list?last=a',
    );
  });

  it('a registry that links the same page again is not read again', () => {
    expect(next('</v2/charts/podinfo/tags/list?last=a>; rel="next"', 'a')).toBeUndefined();
  });

  it('a registry that pages without end is refused after the page bound, never read on', async () => {
    let reads = 0;
    const endless = async () => {
      reads++;
      return { tags: [`t${reads}`], link: `</v2/charts/podinfo/tags/list?last=t${reads}>; rel="next"` };
    };
    await expect(readTagPages(endless, page)).rejects.toThrow(`more than ${TAG_PAGES_MAX} pages`);
    expect(reads).toBe(TAG_PAGES_MAX);
  });

  it('a registry that answers more tags than the bound is refused, not cut short', async () => {
    const huge = async () => ({ tags: Array.from({ length: 20_001 }, (_, i) => `t${i}`), link: null });
    await expect(readTagPages(huge, page)).rejects.toThrow('more than 20000 tags');
  });
});
