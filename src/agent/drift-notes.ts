// The text of the agent's drift Events. Pure.
import type { DriftItem } from '../plan/drift.js';

/** Identifies one sighting of drift: the same object drifted the same way is reported once. */
export function driftKey(d: DriftItem): string {
  return `${d.id}|${d.type}|${d.fields.map((f) => `${f.path}=${JSON.stringify(f.actual)}`).join(',')}`;
}

/** The note of a `DriftDetected` Event (at most 1000 characters; Secret values are already redacted). */
export function detectedNote(d: DriftItem): string {
  const note =
    d.type === 'modified'
      ? d.fields
          .map(
            (f) =>
              `${f.path} is ${JSON.stringify(f.actual)}, git has ${JSON.stringify(f.expected)}${f.manager ? ` (changed by ${f.manager})` : ''}`,
          )
          .join('; ')
      : d.type === 'missing'
        ? 'declared in git but missing from the cluster'
        : 'not declared in git, in a namespace Groundwork manages';
  return note.slice(0, 1000);
}

/** The note of a `DriftCorrected` Event. */
export function correctedNote(d: DriftItem, revision: string): string {
  const what =
    d.type === 'missing'
      ? 're-created the object'
      : `restored ${d.fields.map((f) => f.path).join(', ') || 'the object'}`;
  return `${what} as in git (${revision})`;
}
