/** One member as `groundwork fleet status --hub` shows it. */
export interface HubFleetRow {
  readonly member: string;
  readonly environment?: string;
  readonly overlay?: string;
  /** The revision it applied (`<ref>@sha1:<hex>`). */
  readonly revision?: string;
  /** `True`, `False` or `Unknown` (no report yet). */
  readonly ready: string;
  readonly reason?: string;
  readonly drift?: number;
  /** The hub's verdict: `Reachable`, `Unreachable` or `Unknown`. */
  readonly reachability: string;
  /** When the hub last saw its heartbeat (the hub's clock). */
  readonly lastSeen?: string;
  /** Why its report could not be read (the row says so instead of failing the list). */
  readonly reportProblem?: string;
}

/** The order of `fleet status --hub`: by environment, then member name. */
export function byEnvironmentThenName(a: HubFleetRow, b: HubFleetRow): number {
  // Plain code-unit order: names are DNS labels, and localeCompare costs 15 ms at a thousand rows.
  return cmp(a.environment ?? '', b.environment ?? '') || cmp(a.member, b.member);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
