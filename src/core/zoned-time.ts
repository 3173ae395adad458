/** Civil-time arithmetic in IANA time zones, on top of `Intl` (no time zone data of our own). */

/** A calendar date; `month` is 1–12. */
interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when this runtime knows the zone (`UTC`, `Europe/Berlin`, …). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(ms: number, timeZone: string): { date: CivilDate; asUtc: number } {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const date = { year: parts['year']!, month: parts['month']!, day: parts['day']! };
  return {
    date,
    asUtc: Date.UTC(date.year, date.month - 1, date.day, parts['hour']!, parts['minute']!, parts['second']!),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClock(whole, timeZone).asUtc - whole;
}

/** The calendar date an instant falls on in a zone. */
export function civilDateAt(ms: number, timeZone: string): CivilDate {
  return wallClock(ms, timeZone).date;
}

/** `date` moved by `days` calendar days. */
export function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: CivilDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/**
 * The instant a wall-clock time happens on a date in a zone. A time skipped by a DST jump maps to
 * the instant just after the jump (02:30 on a spring-forward day is 03:30); a repeated time maps to
 * its first occurrence.
 */
export function zonedInstant(date: CivilDate, hour: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // Zones change offset at most once a day: the offsets a day apart bracket every transition.
  const offsets = new Set([
    offsetAt(wall - DAY_MS, timeZone),
    offsetAt(wall, timeZone),
    offsetAt(wall + DAY_MS, timeZone),
  ]);
  const candidates = [...offsets].map((o) => wall - o);
  const exact = candidates.filter((t) => t + offsetAt(t, timeZone) === wall);
  return exact.length ? Math.min(...exact) : Math.max(...candidates);
}
