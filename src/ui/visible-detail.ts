import type { AccessAttributes, ResourceOf } from './access-attributes.js';
import type { ObjectDetail } from './snapshot.js';
import { objectAttributes } from './visible-snapshot.js';

/** `list events` in one namespace: what a reader needs to see the Events kept there. */
export function eventsAttributes(namespace: string): AccessAttributes {
  return { verb: 'list', group: '', resource: 'events', namespace };
}

/**
 * What an object page needs: `get` on the object (its resource in its namespace, then by name for
 * RBAC rules with `resourceNames`) and `list events` in each namespace its Events are in. Pure.
 */
export function detailNeeds(d: ObjectDetail, resourceOf: ResourceOf): AccessAttributes[] {
  const object = objectAttributes(d.row.ref, resourceOf);
  const namespaces = [...new Set(d.events.map((e) => e.namespace))];
  return [object, { ...object, name: d.row.ref.name }, ...namespaces.map(eventsAttributes)];
}

/**
 * The object page as one reader may see it: undefined when they may not `get` the object (then
 * neither the live object nor the desired one nor the diff is shown, and the page answers as for
 * an object the inventory does not list: no existence oracle); else the detail with only the Events
 * of namespaces where they may `list events` (`hiddenEvents` counts the rest). Pure.
 */
export function visibleDetail(
  d: ObjectDetail,
  allowed: (a: AccessAttributes) => boolean,
  resourceOf: ResourceOf,
): ObjectDetail | undefined {
  const object = objectAttributes(d.row.ref, resourceOf);
  if (!allowed(object) && !allowed({ ...object, name: d.row.ref.name })) return undefined;
  const events = d.events.filter((e) => allowed(eventsAttributes(e.namespace)));
  return {
    ...d,
    events,
    ...(events.length < d.events.length ? { hiddenEvents: d.events.length - events.length } : {}),
  };
}
