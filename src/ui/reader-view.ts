import type { ReaderAccess, ResourceOf } from './access-attributes.js';
import type { DashboardSnapshot, ObjectDetail } from './snapshot.js';
import { detailNeeds, visibleDetail } from './visible-detail.js';
import { snapshotNeeds, visibleSnapshot, type SnapshotScope } from './visible-snapshot.js';

const noResource: ResourceOf = () => undefined;

/** What a view is built from (a `DashboardReader`). */
interface ViewSource {
  snapshot(): DashboardSnapshot;
  detail(id: string): ObjectDetail | undefined;
  resourceOf?: ResourceOf;
}

/**
 * The snapshot a page renders for a reader: the source's as is without `access`, else what
 * `visibleSnapshot` keeps after one batched `decide` over the page's needs (`snapshotNeeds`).
 */
export async function readerSnapshot(
  source: ViewSource,
  access: ReaderAccess | undefined,
  scope: SnapshotScope,
): Promise<DashboardSnapshot> {
  const s = source.snapshot();
  if (!access) return s;
  const resourceOf = source.resourceOf ?? noResource;
  const decisions = await access.decide(snapshotNeeds(s, resourceOf, scope));
  return visibleSnapshot(s, (a) => decisions.allowed(a), resourceOf, {
    ...scope,
    unchecked: decisions.unchecked,
  });
}

/**
 * The object page's detail for a reader (`visibleDetail`): undefined when the inventory lacks it or
 * the reader may not read it; `unchecked` > 0 when a permission could not be checked.
 */
export async function readerDetail(
  source: ViewSource,
  access: ReaderAccess | undefined,
  id: string,
): Promise<{ detail: ObjectDetail | undefined; unchecked: number }> {
  const d = source.detail(id);
  if (!d || !access) return { detail: d, unchecked: 0 };
  const resourceOf = source.resourceOf ?? noResource;
  const decisions = await access.decide(detailNeeds(d, resourceOf));
  return {
    detail: visibleDetail(d, (a) => decisions.allowed(a), resourceOf),
    unchecked: decisions.unchecked,
  };
}
