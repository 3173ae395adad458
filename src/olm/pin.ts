import { GroundworkError } from '../core/errors.js';
import type { Catalog } from './catalog/model.js';
import { upgradePath } from './upgrade-path.js';
import {
  UpgradePathFound,
  type UnreachableReason,
  type UpgradePathResult,
  type UpgradePathUnreachable,
} from './upgrade-path-result.js';

/** A Subscription's pin and where it stands. */
interface PinRequest {
  readonly package: string;
  readonly channel: string;
  /** The CSV the operator must end at. */
  readonly pin: string;
  /** `status.installedCSV`; undefined before the first install. */
  readonly installed: string | undefined;
  /** Version of `installed` when the catalog no longer has its bundle. */
  readonly installedVersion?: string;
  /**
   * `spec.startingCSV`, used only before the first install. Without it OLM
   * installs the channel head. @default the channel head
   */
  readonly startingCSV?: string;
}

/** A pin that cannot be reached; `reason` is the upgrade path's closed reason code. */
export class PinUnreachableError extends GroundworkError {
  readonly reason: UnreachableReason;

  constructor(subject: string, path: UpgradePathUnreachable) {
    super({
      code: 'PinUnreachable',
      subject,
      message: `pin ${path.request.to} is unreachable (${path.reason}): ${path.message}`,
      ...(path.fix ? { fix: path.fix } : {}),
    });
    this.reason = path.reason;
  }
}

type PinResult =
  | { readonly ok: true; readonly wanted: ReadonlySet<string>; readonly path: UpgradePathFound }
  | { readonly ok: false; readonly path: UpgradePathUnreachable; readonly error: PinUnreachableError };

/**
 * The CSVs Groundwork may approve for one Subscription: every hop from the
 * installed CSV to the pin (the installed CSV itself is not in the set; a
 * Subscription at its pin wants nothing). Before the first install the path
 * starts with the fresh install of `startingCSV` (or the channel head).
 *
 * Use it in synth validation (an unreachable pin is a validation error: throw
 * `result.error`) and in the agent (feed `wanted` to `decideApprovals`).
 * `subject` names the Subscription in the error. Pure.
 *
 * @example
 * const r = wantedCSVs(catalog, { package: 'foo', channel: 'beta', pin: 'foo.v0.3.1', installed: 'foo.v0.1.0' }, 'Subscription/ops/foo');
 * if (!r.ok) throw r.error;
 * r.wanted; // Set { 'foo.v0.2.0', 'foo.v0.3.1' }
 */
export function wantedCSVs(catalog: Catalog, req: PinRequest, subject: string): PinResult {
  const path = pinPath(catalog, req);
  if (!path.ok) return { ok: false, path, error: new PinUnreachableError(subject, path) };
  return { ok: true, wanted: new Set(path.hops.map((h) => h.csv)), path };
}

function pinPath(catalog: Catalog, req: PinRequest): UpgradePathResult {
  const base = { package: req.package, channel: req.channel };
  if (req.installed !== undefined) {
    return upgradePath(catalog, {
      ...base,
      from: req.installed,
      to: req.pin,
      ...(req.installedVersion === undefined ? {} : { fromVersion: req.installedVersion }),
    });
  }
  const head = catalog.packages.get(req.package)?.channels.get(req.channel)?.head;
  const start = req.startingCSV ?? head ?? req.pin;
  const install = upgradePath(catalog, { ...base, from: undefined, to: start });
  if (!install.ok || start === req.pin) return install;
  const rest = upgradePath(catalog, { ...base, from: start, to: req.pin });
  if (!rest.ok) return rest;
  return new UpgradePathFound({ ...base, from: undefined, to: req.pin }, [...install.hops, ...rest.hops]);
}
