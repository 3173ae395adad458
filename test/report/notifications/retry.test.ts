import { describe, expect, it } from 'vitest';
import { nextStep, retryAfterMs, DEFAULT_RETRY } from '../../../src/report/notifications/retry.js';

const response = (status: number, retryAfter?: number) => ({
  type: 'response' as const,
  status,
  ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
});

describe('nextStep', () => {
  it('is done on 2xx', () => {
    expect(nextStep(response(201), 1)).toEqual({ type: 'done' });
  });

  it.each([400, 401, 403, 404, 422, 301])('gives up at once on %i', (status) => {
    expect(nextStep(response(status), 1)).toEqual({ type: 'give-up', why: `HTTP ${status}` });
  });

  it('retries 5xx, 408, 429 and network errors with a doubling wait up to the cap', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => nextStep(response(503), attempt, DEFAULT_RETRY, 1));
    expect(waits.map((w) => (w.type === 'retry' ? w.afterMs : w.type))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(nextStep({ type: 'error', message: 'timed out' }, 1).type).toBe('retry');
    expect(nextStep(response(408), 1).type).toBe('retry');
    expect(nextStep(response(429), 1).type).toBe('retry');
    const capped = nextStep(response(500), 5, { attempts: 10, baseMs: 1000, maxMs: 3000 }, 1);
    expect(capped).toMatchObject({ afterMs: 3000 });
  });

  it('spreads waits by jitter (half the wait is random)', () => {
    const low = nextStep(response(500), 3, DEFAULT_RETRY, 0);
    const high = nextStep(response(500), 3, DEFAULT_RETRY, 0.999);
    expect(low).toMatchObject({ afterMs: 2000 });
    expect(high.type === 'retry' && high.afterMs).toBeGreaterThan(3990);
  });

  it('gives up after the last attempt', () => {
    expect(nextStep(response(500), 6)).toEqual({ type: 'give-up', why: 'HTTP 500 (after 6 attempts)' });
  });

  it('honours Retry-After, up to the cap', () => {
    expect(nextStep(response(429, 30_000), 1, DEFAULT_RETRY, 0)).toMatchObject({ afterMs: 30_000 });
    expect(nextStep(response(429, 3_600_000), 1, DEFAULT_RETRY, 0)).toMatchObject({ afterMs: 60_000 });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('7', 0)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
});
