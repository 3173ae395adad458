import { describe, expect, it } from 'vitest';
import { fleetView, type NextPromotion } from '../../src/fleet/fleet-view.js';
import { GATES, type ClusterObservation } from '../../src/fleet/gates.js';
import type { PromotionResult } from '../../src/fleet/promotion.js';
import type { Environment } from '../../src/project/environments.js';
import type { FleetState } from '../../src/ui/fleet-state.js';
import { fleetPage } from '../../src/ui/pages/fleet.js';
import { overviewPage } from '../../src/ui/pages/overview.js';
import { healthyStaging } from '../harness/promotion.js';
import { HOSTILE, hostileSnapshot } from './fixtures.js';

const ESCAPED =
  '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;javascript:alert(3)';
const R = 'a'.repeat(40);
const ENVS: Environment[] = [
  { name: 'staging', overlays: ['staging'], ref: 'env/staging', soak: '0s', soakMs: 0, windows: [] },
  {
    name: 'prod',
    overlays: ['prod'],
    ref: 'env/prod',
    promotedFrom: 'staging',
    soak: '0s',
    soakMs: 0,
    windows: [],
  },
];

/** The promotion into prod with `failures` (none: it would promote). */
function promotion(
  failures: PromotionResult['gates'][number]['failures'],
  extra: Partial<PromotionResult> = {},
): NextPromotion {
  const failed = new Set(failures.map((f) => f.gate));
  return {
    result: {
      apiVersion: 'groundwork.io/v1',
      kind: 'Promotion',
      environment: 'prod',
      from: 'staging',
      ref: 'env/prod',
      repository: 'http://git.example/p.git',
      commit: R,
      ahead: 3,
      clusters: ['staging-1 (staging)'],
      gates: GATES.filter((g) => g !== 'Verified').map((gate) => ({
        gate,
        passed: !failed.has(gate),
        failures: failures.filter((f) => f.gate === gate),
      })),
      outcome: failures.length > 0 ? 'refused' : 'would-promote',
      ...extra,
    },
  };
}

function page(
  next: NextPromotion | undefined,
  observations: ClusterObservation[] = [healthyStaging(R)],
): string {
  const view = fleetView({
    platform: 'p',
    environments: ENVS,
    observations,
    promotions: new Map(next ? [['prod', next]] : []),
    now: new Date('2026-11-27T00:00:00Z'),
  });
  const fleet: FleetState = { view, reading: false, intervalMs: 30_000, lastReadMs: 1200 };
  return fleetPage({ ...hostileSnapshot(), fleet }).markup;
}

/** The gate rows' states, by gate: what a reader sees in the State column. */
function states(markup: string): Record<string, string> {
  return Object.fromEntries(
    [
      ...markup.matchAll(
        /<tr data-gate="(\w+)" data-passed="(true|false)">[\s\S]*?<span class="badge \w+">([\w ]+)<\/span>/g,
      ),
    ].map((m) => [m[1]!, m[3]!]),
  );
}

describe('the Fleet page', () => {
  it('shows every gate of the next promotion, and what holds a failing one', () => {
    const markup = page(
      promotion([
        {
          gate: 'Soaked',
          cluster: 'staging-1 (staging)',
          message: 'Ready for 4m of the 30m soak time of staging; promotable in 26m',
        },
      ]),
    );
    expect(markup).toContain('<h3>Next promotion: staging → prod</h3>');
    expect(states(markup)).toMatchObject({
      Reachable: 'passed',
      Soaked: 'failing',
      FastForward: 'passed',
      Window: 'passed',
    });
    expect(Object.keys(states(markup))).toHaveLength(9);
    expect(markup).toContain('data-outcome="refused"');
    expect(markup).toContain('Held by 1 gate(s): Soaked.');
    expect(markup).toContain(
      '<strong>staging-1 (staging)</strong>: Ready for 4m of the 30m soak time of staging; promotable in 26m',
    );
  });

  it('says what a promotion would do once every gate passes', () => {
    const markup = page(promotion([]));
    expect(Object.values(states(markup)).every((s) => s === 'passed')).toBe(true);
    expect(markup).toContain('data-outcome="would-promote"');
    expect(markup).toMatch(/would move env\/prod to aaaaaaaaaaaa\s+\(3 commit\(s\)\)/);
  });

  it('marks the git gates not checked when the source runs no single commit', () => {
    const markup = page(
      promotion([{ gate: 'SameRevision', message: 'the clusters run different revisions' }], {
        commit: undefined,
      }),
    );
    expect(states(markup)).toMatchObject({
      SameRevision: 'failing',
      FastForward: 'not checked',
      Window: 'not checked',
    });
  });

  it("shows each environment's clusters as fleet status reads them, and a promotion that could not be checked", () => {
    const markup = page({ error: 'git: authentication required' });
    expect(markup).toContain('data-env="staging"');
    expect(markup).toContain('<tr data-cluster="staging-1">');
    expect(markup).toContain('<code>env/staging@aaaaaaaaaaaa</code>');
    expect(markup).toContain('Cannot check the gates: git: authentication required');
    expect(markup).toContain('No cluster of the fleet reports overlay prod.');
    expect(markup).toContain('read again every 30.0 s');
  });

  it('renders hostile cluster names, reasons and messages as text', () => {
    const hostile: ClusterObservation = { cluster: HOSTILE, context: HOSTILE, error: HOSTILE, syncs: [] };
    const sick = healthyStaging(R);
    const sync = sick.syncs[0]!;
    const status = {
      ...sync.status!,
      health: { status: 'Degraded' as const, reason: HOSTILE, message: HOSTILE },
    };
    const markup = page(promotion([{ gate: 'Healthy', cluster: HOSTILE, message: HOSTILE }]), [
      hostile,
      { ...sick, cluster: HOSTILE, syncs: [{ ...sync, status }] },
    ]);
    expect(markup).toContain(ESCAPED);
    expect(markup).toContain('<h2 id="unread-h">Clusters not read</h2>');
    expect(markup).toContain(`<td>${ESCAPED}</td>`);
    expect(markup).not.toContain('<script>alert');
    expect(markup).not.toContain('<img src=x');
    // Every tag a browser would build: the layout's one script (app.js), no img, no second script.
    const tags = [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b/g)].map((m) => m[1]!.toLowerCase());
    expect(tags.filter((t) => t === 'script')).toHaveLength(1);
    expect(tags).not.toContain('img');
  });

  it('is in the navigation only when the dashboard has a fleet (not in the agent)', () => {
    expect(overviewPage(hostileSnapshot()).markup).not.toContain('href="/fleet"');
    const withFleet = overviewPage({
      ...hostileSnapshot(),
      fleet: { reading: true, intervalMs: 30_000 },
    }).markup;
    expect(withFleet).toContain('href="/fleet"');
    expect(fleetPage(hostileSnapshot()).markup).toContain('This dashboard shows no fleet');
  });

  it('says it is reading before the first read ends, and why there is no fleet outside a platform repository', () => {
    expect(
      fleetPage({ ...hostileSnapshot(), fleet: { reading: true, intervalMs: 30_000 } }).markup,
    ).toContain('Reading the fleet');
    const none = fleetPage({
      ...hostileSnapshot(),
      fleet: { reading: false, intervalMs: 30_000, unavailable: `No groundwork.yaml in /x/${HOSTILE}` },
    }).markup;
    expect(none).toContain(`No groundwork.yaml in /x/${ESCAPED}`);
    expect(none).toContain('aria-current="page"');
  });
});
