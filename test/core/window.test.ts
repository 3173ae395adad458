import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseWindows,
  serializeWindows,
  windowState,
  WEEKDAYS,
  type MaintenanceWindow,
} from '../../src/core/window.js';

const at = (iso: string) => new Date(iso);
const state = (windows: MaintenanceWindow[], iso: string) => {
  const s = windowState(windows, at(iso));
  return { open: s.open, next: s.next?.toISOString() };
};

describe('windowState', () => {
  const nightly: MaintenanceWindow[] = [{ start: '22:00', duration: '4h' }];

  it('is open inside a daily UTC window and says when it closes', () => {
    expect(state(nightly, '2024-06-05T23:30:00Z')).toEqual({ open: true, next: '2024-06-06T02:00:00.000Z' });
    expect(windowState(nightly, at('2024-06-05T23:30:00Z')).reason).toBe(
      'open: in window daily 22:00+4h UTC until 2024-06-06T02:00:00.000Z',
    );
  });

  it('stays open past midnight in the window that started the day before', () => {
    expect(state(nightly, '2024-06-06T01:59:59Z')).toEqual({ open: true, next: '2024-06-06T02:00:00.000Z' });
  });

  it('is closed at the end instant and says when the next one opens', () => {
    expect(state(nightly, '2024-06-06T02:00:00Z')).toEqual({ open: false, next: '2024-06-06T22:00:00.000Z' });
    expect(windowState(nightly, at('2024-06-06T02:00:00Z')).reason).toBe(
      'closed: next window daily 22:00+4h UTC opens at 2024-06-06T22:00:00.000Z',
    );
  });

  it('counts a listed day by when the window starts, across midnight', () => {
    const sunday: MaintenanceWindow[] = [{ days: ['Sun'], start: '22:00', duration: '4h' }];
    expect(state(sunday, '2024-06-10T01:00:00Z')).toEqual({ open: true, next: '2024-06-10T02:00:00.000Z' }); // Monday 01:00
    expect(state(sunday, '2024-06-11T01:00:00Z')).toEqual({ open: false, next: '2024-06-16T22:00:00.000Z' }); // Tuesday
  });

  it('reads days and times in the window time zone', () => {
    // Monday 20:00 in New York (EDT, UTC-4) is Tuesday 00:00 UTC.
    const ny: MaintenanceWindow[] = [
      { days: ['Mon'], start: '20:00', duration: '2h', timezone: 'America/New_York' },
    ];
    expect(state(ny, '2024-06-11T00:30:00Z')).toEqual({ open: true, next: '2024-06-11T02:00:00.000Z' });
    expect(state(ny, '2024-06-10T20:30:00Z')).toEqual({ open: false, next: '2024-06-11T00:00:00.000Z' });
    // Saturday 02:00 in Berlin (CEST, UTC+2) is Saturday 00:00 UTC.
    const berlin: MaintenanceWindow[] = [
      { days: ['Sat'], start: '02:00', duration: '4h', timezone: 'Europe/Berlin' },
    ];
    expect(state(berlin, '2024-06-08T00:30:00Z')).toEqual({ open: true, next: '2024-06-08T04:00:00.000Z' });
    expect(state(berlin, '2024-06-07T23:30:00Z')).toEqual({ open: false, next: '2024-06-08T00:00:00.000Z' });
    // Kolkata is UTC+5:30.
    expect(
      state([{ start: '00:00', duration: '1h', timezone: 'Asia/Kolkata' }], '2024-06-07T19:00:00Z'),
    ).toEqual({ open: true, next: '2024-06-07T19:30:00.000Z' });
  });

  it('follows daylight saving time: same wall clock, elapsed duration', () => {
    const berlin: MaintenanceWindow[] = [{ start: '01:00', duration: '3h', timezone: 'Europe/Berlin' }];
    expect(state(berlin, '2024-01-15T00:30:00Z')).toEqual({ open: true, next: '2024-01-15T03:00:00.000Z' }); // CET
    expect(state(berlin, '2024-07-15T00:30:00Z')).toEqual({ open: true, next: '2024-07-15T02:00:00.000Z' }); // CEST
  });

  it('starts a window whose wall-clock time is skipped by DST just after the jump, and a repeated one at its first occurrence', () => {
    const skipped: MaintenanceWindow[] = [{ start: '02:30', duration: '1h', timezone: 'Europe/Berlin' }];
    // 2024-03-31: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist and maps to 03:30 CEST (01:30 UTC).
    expect(state(skipped, '2024-03-31T00:00:00Z')).toEqual({ open: false, next: '2024-03-31T01:30:00.000Z' });
    // 2024-10-27: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice, the first time at 00:30 UTC.
    expect(state(skipped, '2024-10-26T23:00:00Z')).toEqual({ open: false, next: '2024-10-27T00:30:00.000Z' });
  });

  it('reports the end of overlapping windows together', () => {
    const overlapping: MaintenanceWindow[] = [
      { start: '01:00', duration: '2h' },
      { start: '02:30', duration: '2h' },
      { start: '04:30', duration: '30m' },
    ];
    expect(state(overlapping, '2024-06-05T01:30:00Z')).toEqual({
      open: true,
      next: '2024-06-05T05:00:00.000Z',
    });
  });

  it('is always open without windows', () => {
    expect(windowState([], at('2024-06-05T12:00:00Z'))).toEqual({
      open: true,
      reason: 'no maintenance windows: updates may start at any time',
    });
  });

  it('stays closed on invalid windows or an invalid time, and says why', () => {
    expect(windowState([{ start: '24:00', duration: '1h' }], at('2024-06-05T12:00:00Z'))).toEqual({
      open: false,
      reason: 'invalid maintenance windows: [0.start] start must be HH:MM (24-hour)',
    });
    expect(windowState([{ start: '22:00', duration: '4h' }], new Date(Number.NaN))).toEqual({
      open: false,
      reason: 'invalid time',
    });
  });

  it('changes state exactly at next (property)', () => {
    const window = fc.record(
      {
        days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }),
        start: fc
          .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
          .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
        duration: fc.integer({ min: 1, max: 20 * 60 }).map((m) => `${m}m`),
        timezone: fc.constantFrom(
          'UTC',
          'Europe/Berlin',
          'America/New_York',
          'Asia/Kolkata',
          'Australia/Lord_Howe',
        ),
      },
      { requiredKeys: ['start', 'duration'] },
    );
    fc.assert(
      fc.property(
        window,
        fc.date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2030-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (w, now) => {
          const s = windowState([w], now);
          expect(s.next).toBeDefined();
          const next = s.next!.getTime();
          expect(next).toBeGreaterThan(now.getTime());
          expect(windowState([w], new Date(next - 1)).open).toBe(s.open);
          expect(windowState([w], new Date(next)).open).toBe(!s.open);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('window annotation format', () => {
  it('serializes with a fixed key order and the zone filled in, and reads it back', () => {
    const json = serializeWindows([
      { timezone: 'Europe/Berlin', duration: '90m', start: '01:00' },
      { days: ['Sat', 'Sun'], start: '02:00', duration: '1h30m' },
    ]);
    expect(json).toBe(
      '[{"start":"01:00","duration":"90m","timezone":"Europe/Berlin"},{"days":["Sat","Sun"],"start":"02:00","duration":"1h30m","timezone":"UTC"}]',
    );
    expect(parseWindows(json)).toEqual({ ok: true, windows: JSON.parse(json) });
  });

  it('names what is wrong with a bad annotation', () => {
    expect(parseWindows('[{"start":"1am","duration":"1h"}]')).toEqual({
      ok: false,
      error: '[0.start] start must be HH:MM (24-hour)',
    });
    expect(parseWindows('nope')).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON: /) });
  });
});
