import { describe, expect, it } from 'vitest';
import { buildChannel, type ChannelEntry } from '../../../src/olm/index.js';

const e = (name: string, more: Partial<ChannelEntry> = {}): ChannelEntry => ({ name, skips: [], ...more });

describe('buildChannel', () => {
  it.each([
    {
      title: 'a replaces chain, head first',
      entries: [e('a.1'), e('a.2', { replaces: 'a.1' }), e('a.3', { replaces: 'a.2' })],
      head: 'a.3',
      order: ['a.3', 'a.2', 'a.1'],
      excluded: [],
    },
    {
      title: 'skipped entries leave the order but the walk goes on through them',
      entries: [e('a.1'), e('a.2', { replaces: 'a.1' }), e('a.3', { replaces: 'a.2', skips: ['a.2'] })],
      head: 'a.3',
      order: ['a.3', 'a.1'],
      excluded: [{ name: 'a.2', why: 'skipped', by: ['a.3'] }],
    },
    {
      title: 'an entry replaced only by a skipped entry is off the chain',
      // a.3 replaces a.1 and skips x; x replaces a.0: x is skipped, a.0 is reached by nothing from the head.
      entries: [e('a.0'), e('x', { replaces: 'a.0' }), e('a.1'), e('a.3', { replaces: 'a.1', skips: ['x'] })],
      head: 'a.3',
      order: ['a.3', 'a.1'],
      excluded: [
        { name: 'a.0', why: 'off-chain', by: [] },
        { name: 'x', why: 'skipped', by: ['a.3'] },
      ],
    },
    {
      title: 'names outside the channel are ignored',
      entries: [e('a.2', { replaces: 'a.1', skips: ['a.0'] })],
      head: 'a.2',
      order: ['a.2'],
      excluded: [],
    },
  ])('$title', ({ entries, head, order, excluded }) => {
    const c = buildChannel('a', 'stable', entries);
    expect(c.problems).toEqual([]);
    expect(c.head).toBe(head);
    expect(c.order).toEqual(order);
    expect(c.excluded).toEqual(excluded);
  });

  it.each([
    { title: 'two heads', entries: [e('a.1'), e('b.1')], problem: /2 channel heads \(a\.1, b\.1\)/ },
    {
      title: 'no head (a cycle)',
      entries: [e('a.1', { replaces: 'a.2' }), e('a.2', { replaces: 'a.1' })],
      problem: /no channel head/,
    },
    {
      title: 'a cycle below the head',
      entries: [e('h', { replaces: 'a.1' }), e('a.1', { replaces: 'a.2' }), e('a.2', { replaces: 'a.1' })],
      problem: /loops back to a\.1/,
    },
    { title: 'a duplicate entry', entries: [e('a.1'), e('a.1')], problem: /a\.1 appears more than once/ },
  ])('reports $title and gives no head or order', ({ entries, problem }) => {
    const c = buildChannel('a', 'stable', entries);
    expect(c.problems.join('\n')).toMatch(problem);
    expect(c.head).toBeUndefined();
    expect(c.order).toEqual([]);
  });
});
