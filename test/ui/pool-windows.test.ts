import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { serializeWindows } from '../../src/core/window.js';
import { openshiftPage } from '../../src/ui/pages/openshift.js';
import { HOSTILE, hostileSnapshot } from './fixtures.js';

/** A MachineConfigPool as the cluster returns it, with `annotations`. */
function pool(name: string, annotations?: Record<string, string>): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { paused: true },
    status: {
      machineCount: 3,
      updatedMachineCount: 3,
      readyMachineCount: 3,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: [],
    },
  } as K8sObject;
}

const WINDOWS = 'groundwork.io/maintenance-windows';
/** Saturday 2026-11-28 02:00 to 06:00 in Berlin is 01:00 to 05:00 UTC. */
const weekend = serializeWindows([
  { days: ['Sat'], start: '02:00', duration: '4h', timezone: 'Europe/Berlin' },
]);

function rowOf(markup: string, name: string): string {
  const start = markup.indexOf(`<tr data-pool="${name}">`);
  expect(start).toBeGreaterThanOrEqual(0);
  return markup.slice(start, markup.indexOf('</tr>', start));
}

describe('the OpenShift page: each pool’s maintenance window at the snapshot’s time', () => {
  const pools = [
    pool('worker', { [WINDOWS]: weekend }),
    pool('infra'),
    pool('gpu', { [WINDOWS]: `not json ${HOSTILE}` }),
    pool('edge', { [WINDOWS]: JSON.stringify([{ start: '25:00', duration: '1h' }]) }),
  ];
  const page = (at: string) =>
    openshiftPage({ ...hostileSnapshot(), at: new Date(at), openshift: { pools } }).markup;

  it('says when a closed window opens, and until when an open one lasts', () => {
    // Friday 2026-11-27 04:00 UTC: closed, the next opening is Saturday 01:00 UTC.
    expect(rowOf(page('2026-11-27T04:00:00Z'), 'worker')).toContain(
      'closed: next window Sat 02:00+4h Europe/Berlin opens at 2026-11-28T01:00:00.000Z',
    );
    expect(rowOf(page('2026-11-28T02:30:00Z'), 'worker')).toContain(
      'open: in window Sat 02:00+4h Europe/Berlin until 2026-11-28T05:00:00.000Z',
    );
  });

  it('a pool without windows says none', () => {
    expect(rowOf(page('2026-11-27T04:00:00Z'), 'infra')).toMatch(/<td>none<\/td>/);
  });

  it('a hostile or invalid annotation is called invalid, its value never shown', () => {
    const markup = page('2026-11-27T04:00:00Z');
    for (const name of ['gpu', 'edge']) {
      const row = rowOf(markup, name);
      expect(row).toContain('invalid groundwork.io/maintenance-windows annotation: kept paused');
      expect(row).not.toContain('not json');
      expect(row).not.toContain('25:00');
    }
    expect(markup).not.toContain(HOSTILE);
    expect(markup).not.toContain('alert(1)</script>');
  });
});
