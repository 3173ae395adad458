import { describe, expect, it } from 'vitest';
import { frameBounds, jsonShape, type JsonBounds } from '../../../src/render/sandbox/json-shape.js';

const WIDE: JsonBounds = { maxValues: 1000, maxContainers: 1000, maxDepth: 100 };
const shape = (text: string, bounds = WIDE) => jsonShape(Buffer.from(`xx${text}`), 2, bounds);

describe('jsonShape: a JSON text counted from its bytes', () => {
  it.each([
    ['a scalar', '7', { values: 1, containers: 0, depth: 0 }],
    ['an object with a nested array', '{"a":[1,2]}', { values: 5, containers: 2, depth: 2 }],
    ['literals and negative numbers', '[true,false,null,-1.5e3]', { values: 5, containers: 1, depth: 1 }],
    [
      'strings holding brackets, commas and escaped quotes',
      '["{[,:]}","a\\"b\\\\",""]',
      { values: 4, containers: 1, depth: 1 },
    ],
    ['white space between tokens', ' { "a" : [ 1 , 2 ] } ', { values: 5, containers: 2, depth: 2 }],
    ['empty containers', '[{},[],{}]', { values: 4, containers: 4, depth: 2 }],
  ])('%s', (_what, text, counted) => {
    expect(shape(text)).toEqual({ ok: true, ...counted });
  });

  it.each([
    ['values', '[1,2,3,4]', { ...WIDE, maxValues: 4 }, 'maxValues'],
    ['objects and arrays', '[{},{}]', { ...WIDE, maxContainers: 2 }, 'maxContainers'],
    ['depth', '[[[]]]', { ...WIDE, maxDepth: 2 }, 'maxDepth'],
  ])('stops at the first bound it passes: %s', (_what, text, bounds, exceeded) => {
    expect(shape(text, bounds)).toMatchObject({ ok: false, exceeded });
  });

  it('stays within its bounds on text that is not JSON (an unterminated string, stray brackets)', () => {
    expect(shape('["abc', WIDE)).toEqual({ ok: true, values: 2, containers: 1, depth: 1 });
    expect(shape(']]]]{', WIDE)).toMatchObject({ ok: true, containers: 1 });
  });

  it('frameBounds: a value per 8 bytes, a container per 64, nesting to 100', () => {
    expect(frameBounds(64 * 1024 * 1024)).toEqual({
      maxValues: 8_388_608,
      maxContainers: 1_048_576,
      maxDepth: 100,
    });
    expect(frameBounds(10)).toEqual({ maxValues: 1024, maxContainers: 256, maxDepth: 100 });
  });
});
