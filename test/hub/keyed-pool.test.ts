import { describe, expect, it } from 'vitest';
import { KeyedPool } from '../../src/hub/keyed-pool.js';

const tick = (ms = 2) => new Promise((r) => setTimeout(r, ms));

describe('KeyedPool', () => {
  it('runs at most `limit` tasks at once, and every task', async () => {
    const pool = new KeyedPool(3);
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    for (let i = 0; i < 10; i++)
      pool.add(`k${i}`, async () => {
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        done.push(i);
      });
    expect(pool.active).toBe(3);
    expect(pool.queued).toBe(7);
    await pool.idle();
    expect(peak).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('runs tasks of one key one after another, in order, while other keys go ahead', async () => {
    const pool = new KeyedPool(4);
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick(5);
      log.push(`end ${name}`);
    };
    pool.add('token-a', task('a1'));
    pool.add('token-a', task('a2'));
    pool.add('token-b', task('b1'));
    expect(pool.active).toBe(2); // a2 waits for a1, b1 does not
    await pool.idle();
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('a failing task is reported and stops nothing', async () => {
    const errors: unknown[] = [];
    const pool = new KeyedPool(1, (err) => errors.push(err));
    const ran: string[] = [];
    pool.add('x', () => Promise.reject(new Error('boom')));
    pool.add('x', async () => void ran.push('after'));
    await pool.idle();
    expect(ran).toEqual(['after']);
    expect(errors).toEqual([new Error('boom')]);
    expect(() => new KeyedPool(0)).toThrow(RangeError);
  });
});
