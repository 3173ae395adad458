// Requests to the agent written on its PlatformSync as annotations (by `groundwork sync` or by hand
// with `kubectl annotate`), so RBAC on that object decides who may steer the agent. The values are
// hostile input: parsed here, bounded, never trusted to be well-formed.
import { z } from 'zod';

/** Present (any string value, even empty): the agent applies nothing until it is removed. Value: why. */
export const SUSPEND_ANNOTATION = 'groundwork.io/suspend';
/** Who suspended the sync (written by `groundwork sync suspend`: the user the apiserver authenticated). */
export const SUSPENDED_BY_ANNOTATION = 'groundwork.io/suspended-by';
/** When the sync was suspended (RFC 3339, written by `groundwork sync suspend`). */
export const SUSPENDED_AT_ANNOTATION = 'groundwork.io/suspended-at';

/** Asks for a cycle now; any new value (the CLI writes the time) is one request, answered in
 * `status.lastHandledReconcileAt` (as Flux's `reconcile.fluxcd.io/requestedAt`). */
export const RECONCILE_ANNOTATION = 'groundwork.io/reconcile-requested-at';
/** Longest reconcile token kept (a longer one is cut). */
export const TOKEN_LIMIT = 64;

/** Longest reason kept; longer ones are cut with an ellipsis. */
export const REASON_LIMIT = 256;
/** Longest user name kept. */
export const BY_LIMIT = 128;

/** What the annotations ask of the agent. */
export interface SyncControl {
  /** Set while suspended: apply nothing (drift is still detected and reported). */
  suspended?: { reason: string; by?: string; at?: string };
  /** The reconcile request's token: a cycle is asked for while it differs from the last handled one. */
  reconcile?: string;
}

const annotationsSchema = z.record(z.string(), z.unknown());
const timeSchema = z.iso.datetime({ offset: true });

/** One line, printable, at most `limit` characters. */
function tidy(value: string, limit: number): string {
  // eslint-disable-next-line no-control-regex
  const line = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/**
 * The requests in `annotations` (a PlatformSync's `metadata.annotations`, unvalidated). Never throws:
 * anything that is not an object of strings asks for nothing, a suspend annotation holding something
 * other than a string still suspends (its reason is then unknown), and every value is cut to its bound.
 */
export function parseSyncControl(annotations: unknown): SyncControl {
  const parsed = annotationsSchema.safeParse(annotations);
  if (!parsed.success) return {};
  const a = parsed.data;
  const token = typeof a[RECONCILE_ANNOTATION] === 'string' ? tidy(a[RECONCILE_ANNOTATION], TOKEN_LIMIT) : '';
  const reconcile = token ? { reconcile: token } : {};
  if (!(SUSPEND_ANNOTATION in a)) return reconcile;
  const reason = typeof a[SUSPEND_ANNOTATION] === 'string' ? tidy(a[SUSPEND_ANNOTATION], REASON_LIMIT) : '';
  const by = typeof a[SUSPENDED_BY_ANNOTATION] === 'string' ? tidy(a[SUSPENDED_BY_ANNOTATION], BY_LIMIT) : '';
  const at = timeSchema.safeParse(a[SUSPENDED_AT_ANNOTATION]);
  return {
    suspended: { reason, ...(by ? { by } : {}), ...(at.success ? { at: at.data } : {}) },
    ...reconcile,
  };
}
