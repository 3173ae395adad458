import { z } from 'zod';
import type { K8sObject } from '../core/object.js';
import { intentsOf } from '../cluster-version/update-plan.js';
import type { ProposalKind } from './proposal.js';

/** One version a platform pins, as its rendered overlays show it. */
export type Pin = OperatorPin | ClusterVersionPin | ChartPin;

interface PinBase {
  readonly kind: ProposalKind;
  /** The package, `openshift`, or the chart name. */
  readonly subject: string;
  /** The pinned value: a CSV name, a release version, a chart version. */
  readonly value: string;
  /** The overlays that pin it at this value. */
  readonly overlays: readonly string[];
}

/** A Subscription's `startingCSV` (the `PlatformOperator` pin). */
export interface OperatorPin extends PinBase {
  readonly kind: 'operator';
  readonly channel: string;
  /** The construct that emitted the Subscription (`platform/kepler`). */
  readonly construct: string;
}

/** A `ClusterVersionTarget`'s version and channel, with the risks the platform already accepts. */
export interface ClusterVersionPin extends PinBase {
  readonly kind: 'cluster-version';
  readonly channel: string | undefined;
  readonly acceptedRisks: readonly string[];
}

/** A `HelmChart` from a chart repository (`repo`), locked in groundwork-charts.lock.yaml. */
export interface ChartPin extends PinBase {
  readonly kind: 'chart';
  readonly repo: string;
}

/** What `pinsOf` reads of one overlay's synth result. */
export interface RenderedOverlay {
  readonly overlay: string;
  readonly manifests: readonly { readonly object: K8sObject; readonly source: string }[];
  readonly renders?: readonly { engine: string; chart?: string; repo?: string; version?: string }[];
}

const subscriptionSpec = z.looseObject({
  name: z.string().min(1),
  channel: z.string().min(1),
  startingCSV: z.string().min(1),
});

/**
 * The pins of the overlays of one environment, one per (kind, subject, value), listing the
 * overlays that pin it; in the order kind, subject, value. Reads only what synth returned: a
 * Subscription with `startingCSV`, a ClusterVersion with a target version, a remote HelmChart.
 * A Subscription without `startingCSV` follows its channel by itself and is no pin. Pure.
 */
export function pinsOf(rendered: readonly RenderedOverlay[]): Pin[] {
  const pins = new Map<string, Pin>();
  const add = (pin: Pin) => {
    const key = `${pin.kind}\n${pin.subject}\n${pin.value}`;
    const seen = pins.get(key);
    pins.set(key, seen ? { ...seen, overlays: [...new Set([...seen.overlays, ...pin.overlays])] } : pin);
  };
  for (const r of rendered) {
    const overlays = [r.overlay];
    for (const m of r.manifests) {
      if (m.object.kind !== 'Subscription') continue;
      const spec = subscriptionSpec.safeParse(m.object.spec);
      if (!spec.success) continue;
      add({
        kind: 'operator',
        subject: spec.data.name,
        value: spec.data.startingCSV,
        channel: spec.data.channel,
        construct: m.source.replace(/\/Subscription$/, ''),
        overlays,
      });
    }
    for (const intent of intentsOf(r.manifests.map((m) => m.object)))
      add({
        kind: 'cluster-version',
        subject: 'openshift',
        value: intent.target.version,
        channel: intent.target.channel,
        acceptedRisks: intent.target.acceptedRisks ?? [],
        overlays,
      });
    for (const req of r.renders ?? [])
      if (req.engine === 'helm' && req.chart && req.repo && req.version)
        add({ kind: 'chart', subject: req.chart, value: req.version, repo: req.repo, overlays });
  }
  const order = { operator: 0, 'cluster-version': 1, chart: 2 } as const;
  return [...pins.values()].sort(
    (a, b) =>
      order[a.kind] - order[b.kind] || a.subject.localeCompare(b.subject) || a.value.localeCompare(b.value),
  );
}
