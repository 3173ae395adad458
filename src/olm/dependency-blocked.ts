import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { pathDependencies, unmetCause } from './path-dependencies.js';
import { presentOf, type NamedCatalog, type PresentOperator } from './present-operator.js';
import { wantedCSVs } from './pin.js';
import type { SubscriptionLike } from './olm-objects.js';

/** A pinned operator cannot move towards its pin: a dependency of the next CSV cannot be resolved. */
export class DependencyUnresolvableError extends GroundworkError {
  constructor(subject: string, message: string) {
    super({
      code: 'DependencyUnresolvable',
      subject,
      message,
      fix: 'add a CatalogSource that carries the required operator (and the catalog file to groundwork.yaml); give an installed operator that must move a Subscription whose channel reaches a version in range; or pin a CSV whose requirements hold',
    });
  }
}

/** The conditions OLM writes on a Subscription, read at the edge (the rest of the status is checked elsewhere). */
const conditionsSchema = z.looseObject({
  status: z
    .looseObject({
      conditions: z
        .array(
          z.looseObject({ type: z.string(), status: z.string().optional(), message: z.string().optional() }),
        )
        .optional(),
    })
    .optional(),
});

export interface PinnedSubscription {
  readonly package: string;
  readonly channel: string;
  readonly pin: string;
}

/**
 * Why a pinned Subscription will never reach its pin because of a dependency, or undefined:
 * - OLM said so: `ResolutionFailed=True` naming a bundle's requirement (`bundle X requires an
 *   operator ...`, the solver's `NotSatisfiable`, set by `syncResolvingNamespace` in
 *   `pkg/controller/operators/catalog/operator.go`), while the catalog sources are healthy (an
 *   unhealthy catalog may still bring the dependency: `CatalogSourcesUnhealthy=True` waits);
 * - OLM keeps the installed CSV without a word when every update candidate has a requirement it
 *   cannot meet (the Subscription's constraint includes the installed CSV, `getSubscriptionVariables`):
 *   so a Subscription `AtLatestKnown` short of its pin whose next hop, by the catalog files, has a
 *   requirement nothing satisfies (`planDependencies`) is blocked too. The operators in the
 *   namespace count as OLM counts them: the installed CSV's own requirements hold; a CSV another
 *   Subscription has installed may move one hop along that Subscription's channel; a CSV no
 *   Subscription references stays (so a dependency it fails, e.g. `>2.0.0` against an installed
 *   2.0.0 without a Subscription, blocks the hop).
 * `namespaceCSVs` are the CSVs in the Subscription's namespace and `namespaceSubscriptions` its
 * Subscriptions (they say which CSVs may move, and along which channel). Pure.
 */
export function unresolvableDependency(input: {
  readonly live: SubscriptionLike;
  readonly pinned: PinnedSubscription;
  readonly catalogs: readonly NamedCatalog[];
  readonly namespaceCSVs: readonly string[];
  /** @default none: every CSV of the namespace is one no Subscription references */
  readonly namespaceSubscriptions?: readonly SubscriptionLike[];
}): string | undefined {
  const { live, pinned, catalogs } = input;
  const conditions = conditionsSchema.safeParse(live).data?.status?.conditions ?? [];
  const holds = (type: string) => conditions.find((c) => c.type === type)?.status === 'True';
  const failed = conditions.find((c) => c.type === 'ResolutionFailed' && c.status === 'True');
  if (failed?.message?.includes(' requires an operator ') && !holds('CatalogSourcesUnhealthy'))
    return `OLM cannot resolve the namespace: ${failed.message}`;

  const installed = live.status?.installedCSV;
  if (!installed || installed === pinned.pin || live.status?.state !== 'AtLatestKnown') return undefined;
  const named = catalogs.find((c) => c.catalog.packages.has(pinned.package));
  if (!named) return undefined;
  const path = wantedCSVs(
    named.catalog,
    { package: pinned.package, channel: pinned.channel, pin: pinned.pin, installed },
    pinned.package,
  );
  const next = path.ok ? path.path.hops[0] : undefined;
  if (!next) return undefined;
  const [hop] = pathDependencies({
    package: pinned.package,
    hops: [next],
    catalog: named,
    catalogs,
    installed,
    channel: pinned.channel,
    present: presentIn(input.namespaceCSVs, input.namespaceSubscriptions ?? [], catalogs),
  });
  const unmet = hop?.unmet[0];
  return unmet
    ? `OLM keeps ${installed}: ${unmet.message}, ${unmetCause(unmet, 'the catalog files')}, so the next CSV ${next.csv} is never planned`
    : undefined;
}

/** The CSVs of the namespace the catalogs know, each with the Subscription that installed it, if any. */
function presentIn(
  csvs: readonly string[],
  subscriptions: readonly SubscriptionLike[],
  catalogs: readonly NamedCatalog[],
): PresentOperator[] {
  return csvs.flatMap((csv) => {
    for (const { catalog } of catalogs)
      for (const pkg of catalog.packages.values()) {
        const b = pkg.bundles.get(csv);
        if (!b) continue;
        const sub = subscriptions.find((s) => s.status?.installedCSV === csv);
        // An empty channel is the package's default channel, as OLM reads it.
        const channel = sub && (sub.spec.channel || pkg.defaultChannel);
        return [presentOf(b, channel ? { channel, catalog: undefined } : undefined)];
      }
    return [];
  });
}
