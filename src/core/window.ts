import { z } from 'zod';
import { addDays, civilDateAt, isTimeZone, weekday, zonedInstant } from './zoned-time.js';

// Maintenance windows: when a MachineConfigPool may start updating, and when the fleet may promote
// into an environment. Shared by both domains, so it lives in core.

/** Week days, indexed like `Date.getUTCDay()` (0 = Sunday). */
export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
type Weekday = (typeof WEEKDAYS)[number];

/**
 * When a pool may start updating. Each window opens on every listed day at `start` wall-clock time
 * in `timezone` and stays open for `duration` of elapsed time, so it may run past midnight (a
 * Sunday 22:00 window of 4h covers Monday 01:00) and is an hour longer or shorter on the wall clock
 * across a DST change.
 */
export interface MaintenanceWindow {
  /** @default every day */
  readonly days?: readonly Weekday[];
  /** `HH:MM`, 24-hour wall-clock time in `timezone`. */
  readonly start: string;
  /** `2h`, `90m` or `1h30m`; from 1 minute to 7 days. */
  readonly duration: string;
  /** `UTC` or an IANA zone such as `Europe/Berlin`. @default 'UTC' */
  readonly timezone?: string;
}

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?$/;
const MAX_MINUTES = 7 * 24 * 60;

/** Minutes in a `2h` / `90m` / `1h30m` duration; NaN when malformed. */
function durationMinutes(duration: string): number {
  const m = DURATION.exec(duration);
  if (!m || duration === '') return NaN;
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

export const maintenanceWindowSchema = z.strictObject({
  days: z
    .array(z.enum(WEEKDAYS, { error: 'days are Mon, Tue, Wed, Thu, Fri, Sat, Sun' }))
    .min(1, { error: 'list at least one day, or omit days for every day' })
    .optional()
    .describe('The days it opens on. Default: every day.'),
  start: z
    .string()
    .refine((s) => /^([01]\d|2[0-3]):[0-5]\d$/.test(s), {
      error: 'start must be HH:MM (24-hour)',
      params: { fix: "e.g. '02:00' or '22:30'" },
    })
    .describe('`HH:MM`, 24-hour wall-clock time in `timezone`.'),
  duration: z
    .string()
    .refine(
      (d) => {
        const minutes = durationMinutes(d);
        return minutes >= 1 && minutes <= MAX_MINUTES;
      },
      {
        error: 'duration must be hours and/or minutes from 1m to 168h',
        params: { fix: "e.g. '2h', '90m' or '1h30m'" },
      },
    )
    .describe(
      'How long it stays open: `2h`, `90m` or `1h30m`, from 1 minute to 7 days (it may run past midnight).',
    ),
  timezone: z
    .string()
    .refine(isTimeZone, {
      error: (iss) => `unknown time zone ${JSON.stringify(iss.input)}`,
      params: { fix: "use 'UTC' or an IANA zone such as 'Europe/Berlin'" },
    })
    .optional()
    .describe('`UTC` or an IANA zone such as `Europe/Berlin`. Default: `UTC`.'),
});

export const maintenanceWindowsSchema = z.array(maintenanceWindowSchema);

/** Whether a pool may start updating now, and when that changes. */
interface WindowState {
  readonly open: boolean;
  /** When open: when the window (and any window overlapping it) closes. When closed: when the next one opens. */
  readonly next?: Date;
  readonly reason: string;
}

/** `Sat,Sun 02:00+4h Europe/Berlin`. */
function describeWindow(w: MaintenanceWindow): string {
  return `${w.days ? `${w.days.join(',')} ` : 'daily '}${w.start}+${w.duration} ${w.timezone ?? 'UTC'}`;
}

/**
 * Whether `now` is inside one of `windows`. No windows means no restriction (always open). Windows
 * that fail the schema never open (the caller keeps the pool paused and shows the reason). Pure:
 * reads no clock and no environment.
 *
 * @example
 * windowState([{ days: ['Sat'], start: '22:00', duration: '4h', timezone: 'Europe/Berlin' }], new Date('2024-06-08T21:00:00Z'))
 * // → { open: true, next: 2024-06-09T00:00:00.000Z, reason: 'open: in window Sat 22:00+4h Europe/Berlin until 2024-06-09T00:00:00.000Z' }
 */
export function windowState(windows: readonly MaintenanceWindow[], now: Date): WindowState {
  const parsed = maintenanceWindowsSchema.safeParse(windows);
  if (!parsed.success)
    return {
      open: false,
      reason: `invalid maintenance windows: ${parsed.error.issues.map((i) => `[${i.path.join('.')}] ${i.message}`).join('; ')}`,
    };
  const t = now.getTime();
  if (Number.isNaN(t)) return { open: false, reason: 'invalid time' };
  if (windows.length === 0)
    return { open: true, reason: 'no maintenance windows: updates may start at any time' };

  const spans = windows.flatMap((w) => occurrences(w, t));
  const current = spans.filter((s) => s.start <= t && t < s.end);
  if (current.length > 0) {
    let end = Math.max(...current.map((s) => s.end));
    for (let grew = true; grew;) {
      const longer = spans.filter((s) => s.start <= end && s.end > end);
      grew = longer.length > 0;
      if (grew) end = Math.max(...longer.map((s) => s.end));
    }
    const first = current.sort((a, b) => a.start - b.start)[0]!;
    return {
      open: true,
      next: new Date(end),
      reason: `open: in window ${describeWindow(first.window)} until ${new Date(end).toISOString()}`,
    };
  }
  const upcoming = spans.filter((s) => s.start > t).sort((a, b) => a.start - b.start)[0];
  if (!upcoming) return { open: false, reason: 'closed: no upcoming window' };
  return {
    open: false,
    next: new Date(upcoming.start),
    reason: `closed: next window ${describeWindow(upcoming.window)} opens at ${new Date(upcoming.start).toISOString()}`,
  };
}

interface Span {
  start: number;
  end: number;
  window: MaintenanceWindow;
}

/** The window's openings from 8 days before to 8 days after `t` (a window lasts at most 7 days). */
function occurrences(w: MaintenanceWindow, t: number): Span[] {
  const zone = w.timezone ?? 'UTC';
  const [hour, minute] = w.start.split(':').map(Number) as [number, number];
  const length = durationMinutes(w.duration) * 60_000;
  const today = civilDateAt(t, zone);
  const spans: Span[] = [];
  for (let k = -8; k <= 8; k++) {
    const date = addDays(today, k);
    if (w.days && !w.days.includes(WEEKDAYS[weekday(date)]!)) continue;
    const start = zonedInstant(date, hour, minute, zone);
    spans.push({ start, end: start + length, window: w });
  }
  return spans;
}

/** Windows as written to the `groundwork.io/maintenance-windows` annotation: fixed key order, zone filled in. */
export function serializeWindows(windows: readonly MaintenanceWindow[]): string {
  return JSON.stringify(
    windows.map((w) => ({
      ...(w.days ? { days: [...w.days] } : {}),
      start: w.start,
      duration: w.duration,
      timezone: w.timezone ?? 'UTC',
    })),
  );
}

/** Reads the annotation back; an error names what is wrong (the engine then keeps the pool paused). */
export function parseWindows(
  annotation: string,
): { ok: true; windows: MaintenanceWindow[] } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(annotation);
  } catch (err) {
    return { ok: false, error: `not JSON: ${(err as Error).message}` };
  }
  const parsed = maintenanceWindowsSchema.safeParse(value);
  if (parsed.success) return { ok: true, windows: parsed.data };
  return {
    ok: false,
    error: parsed.error.issues.map((i) => `[${i.path.join('.')}] ${i.message}`).join('; '),
  };
}
