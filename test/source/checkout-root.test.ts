import { describe, expect, it } from 'vitest';
import { checkoutRoot } from '../../src/source/checkouts.js';

// The synth sandbox checks the links of the whole commit a platform subdirectory was checked out
// from: the agent finds that tree from the directory it got and the configured path.
describe('checkoutRoot', () => {
  it.each([
    ['.', '/cache/checkouts/abc'],
    ['', '/cache/checkouts/abc'],
    ['clusters/prod', '/cache/checkouts/abc/clusters/prod'],
    ['./clusters/prod/', '/cache/checkouts/abc/clusters/prod'],
    ['clusters\\prod', '/cache/checkouts/abc/clusters/prod'],
  ])('path %j, dir %s: the commit is /cache/checkouts/abc', (path, dir) => {
    expect(checkoutRoot(dir, path)).toBe('/cache/checkouts/abc');
  });
});
