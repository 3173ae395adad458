import { describe, expect, it } from 'vitest';
import { idOf } from '../../src/core/object-id.js';
import { plan } from '../../src/plan/plan.js';
import { HealthReport } from '../../src/report/health-report.js';
import { renderApplied } from '../../src/cli/quickstart/applied.js';
import { configMap, synthOf } from '../harness/engine.js';

// Names as real platforms have them: an operator's Role in a long namespace, past 60 characters.
const LONG = 'openshift-gitops-operator-controller-manager-metrics-reader-binding-extra';
const objects = [
  configMap('n', 'a', { x: '1' }),
  configMap('openshift-operators-redhat-long-namespace', LONG, { x: '1' }),
  configMap('n', 'b', { x: '1' }),
];

/** The column a word starts at on each line that has it. */
const columnsOf = (lines: readonly string[], word: RegExp): number[] =>
  lines.flatMap((l) => {
    const m = word.exec(l);
    return m ? [m.index] : [];
  });

describe('plan and health tables with a long name', () => {
  it("plan: every create's action starts in one column, and the long name is whole", () => {
    const p = plan(
      synthOf(objects, { overlay: 'dev' }).manifests,
      { live: new Map(), dryRun: new Map(), inventory: undefined, failedLists: [], unknownKinds: new Set() },
      { platform: 'p', overlay: 'dev' },
    );
    const lines = p.toString().split('\n');
    const columns = columnsOf(lines, / create$/);
    expect(columns).toHaveLength(3);
    expect(new Set(columns).size).toBe(1);
    expect(p.toString()).toContain(LONG);
  });

  it('health: every status starts in one column, and the long name is whole', () => {
    const s = synthOf(objects, { overlay: 'dev' });
    const live = new Map(objects.map((o) => [idOf(o), o]));
    const text = new HealthReport(s.manifests, live).toString();
    const lines = text.split('\n').slice(1);
    const columns = columnsOf(lines, / Healthy /);
    expect(columns).toHaveLength(3);
    expect(new Set(columns).size).toBe(1);
    expect(text).toContain(LONG);
  });

  it("the quick start's applied table: every status starts in one column", () => {
    const lines = renderApplied({
      rows: [
        { stage: 'resources', object: 'ConfigMap/n/a', status: 'Healthy', reason: 'Exists' },
        { stage: 'resources', object: `ConfigMap/n/${LONG}`, status: 'Healthy', reason: 'Exists' },
      ],
      clusterVersionHistory: [],
    });
    expect(new Set(columnsOf(lines, / Healthy /)).size).toBe(1);
  });
});
