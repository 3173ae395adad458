import { isPlainObject, type K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';

/** Namespace conditions that say what holds a deletion (k8s.io/api core/v1 `NamespaceConditionType`). */
const HOLDING = [
  'NamespaceFinalizersRemaining',
  'NamespaceContentRemaining',
  'NamespaceDeletionContentFailure',
];

/**
 * What holds a Namespace that is being deleted, from its status conditions (True ones of
 * `HOLDING`, as `type: message`), else its `spec.finalizers`. Values are the server's, JSON-quoted
 * when they hold anything but printable text, and cut at 200 characters.
 */
export function heldBy(ns: K8sObject): string {
  const status = isPlainObject(ns.status) ? ns.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isPlainObject) : [];
  const held = conditions
    .filter((c) => c.status === 'True' && HOLDING.includes(String(c.type)))
    .map((c) => `${String(c.type)}: ${clean(String(c.message ?? c.reason ?? ''))}`);
  if (held.length > 0) return held.join('; ');
  const spec = isPlainObject(ns.spec) ? ns.spec : {};
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers.map(String) : [];
  return finalizers.length > 0 ? `finalizers ${clean(finalizers.join(', '))}` : 'nothing reported yet';
}

/**
 * The desired Namespaces whose live object is being deleted (`metadata.deletionTimestamp`), by
 * name, with a message naming what holds each (`heldBy`). The apiserver refuses to create objects
 * in them until they are gone. Pure.
 */
export function terminatingNamespaces(
  desired: readonly Manifest[],
  live: ReadonlyMap<string, K8sObject>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of desired) {
    if (m.object.apiVersion !== 'v1' || m.object.kind !== 'Namespace') continue;
    const ns = live.get(m.id);
    const since = ns?.metadata.deletionTimestamp;
    if (!ns || !since) continue;
    out.set(
      m.object.metadata.name,
      `Namespace ${m.object.metadata.name} is being deleted (since ${clean(String(since))}), held by ${heldBy(ns)}; nothing can be created in it until it is gone: remove what holds it, then apply again`,
    );
  }
  return out;
}

function clean(s: string): string {
  const cut = s.length > 200 ? `${s.slice(0, 200)}…` : s;
  return /^[\x20-\x7e]*$/.test(cut) ? cut : JSON.stringify(cut);
}
