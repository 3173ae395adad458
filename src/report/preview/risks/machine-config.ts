import { describeRef } from '../../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../../core/object.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import { describePool, poolsSelecting, type SelectingPool } from '../../../machine-config/pool-selection.js';
import type { RiskNote } from '../risk-note.js';

const MCO = 'machineconfiguration.openshift.io';

/**
 * Which MachineConfigPools roll (the MCO drains and reboots their nodes, `maxUnavailable` at a
 * time) and why: a MachineConfig added, changed or removed (the pools that select it in head, and
 * in base, since a pool that stops selecting it rolls too), or a pool added or given a new
 * `machineConfigSelector` or `nodeSelector`. One `MachineConfigPoolRolls` note per pool, `high`
 * for `master` (the control plane), `medium` otherwise, with the pool's settings as in head. A
 * MachineConfig that no pool selects is `MachineConfigUnselected`: it reaches no node (usually a
 * wrong role label). Does not know which changes the MCO applies without a reboot.
 */
export function machineConfigRisks(pairs: readonly ManifestPair[]): RiskNote[] {
  const basePools = pairs
    .filter((p) => isKind(p, MCO, 'MachineConfigPool') && p.base)
    .map((p) => p.base!.object);
  const headPools = pairs
    .filter((p) => isKind(p, MCO, 'MachineConfigPool') && p.head)
    .map((p) => p.head!.object);
  const rolls = new Map<string, { pool: SelectingPool; reasons: string[] }>();
  const roll = (pool: SelectingPool, reason: string): void => {
    const entry = rolls.get(pool.name) ?? { pool, reasons: [] };
    entry.reasons.push(reason);
    rolls.set(pool.name, entry);
  };
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (pair.action === 'unchanged') continue;
    const subject = describeRef(pair.ref);
    if (isKind(pair, MCO, 'MachineConfig')) {
      const inHead = pair.head ? poolsSelecting(pair.head.object, headPools) : [];
      const inBase = pair.base ? poolsSelecting(pair.base.object, basePools) : [];
      if (pair.head && inHead.length === 0) notes.push(unselected(pair.head.object, subject));
      // Head's settings of a pool win: they are the ones in force when the change rolls out.
      for (const pool of [...inHead, ...inBase.filter((b) => !inHead.some((h) => h.name === b.name))])
        roll(pool, `${subject} ${pair.action}`);
    } else if (isKind(pair, MCO, 'MachineConfigPool') && pair.head) {
      for (const reason of poolReasons(pair.base?.object, pair.head.object))
        roll(describePool(pair.head.object), reason);
    }
  }
  for (const { pool, reasons } of [...rolls.values()].sort((a, b) => (a.pool.name < b.pool.name ? -1 : 1))) {
    const settings = `maxUnavailable ${pool.maxUnavailable}${pool.declared ? '' : ' (built-in pool)'}`;
    const paused = pool.paused ? '; the pool is paused: the rollout waits until it is unpaused' : '';
    const windows = pool.maintenanceWindows ? '; only inside its maintenance windows' : '';
    notes.push({
      severity: pool.name === 'master' ? 'high' : 'medium',
      code: 'MachineConfigPoolRolls',
      subject: `MachineConfigPool/${pool.name}`,
      message: `reboots nodes in pool ${pool.name}, ${settings}: ${reasons.join(', ')}${paused}${windows}`,
    });
  }
  return notes;
}

function unselected(mc: K8sObject, subject: string): RiskNote {
  const labels = Object.entries(mc.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`);
  return {
    severity: 'medium',
    code: 'MachineConfigUnselected',
    subject,
    message: `no MachineConfigPool selects it (labels: ${labels.length ? labels.join(', ') : 'none'}): it reaches no node; set the machineconfiguration.openshift.io/role label to a pool's role`,
  };
}

/** Why a pool's nodes re-render: the pool is new, or what it selects (configs or nodes) changed. */
function poolReasons(base: K8sObject | undefined, head: K8sObject): string[] {
  if (!base) return ['pool added: nodes matching its nodeSelector move into it'];
  const reasons: string[] = [];
  for (const field of ['machineConfigSelector', 'nodeSelector']) {
    if (JSON.stringify(specOf(base)[field]) !== JSON.stringify(specOf(head)[field]))
      reasons.push(`${field} changed`);
  }
  return reasons;
}

function specOf(obj: K8sObject): Record<string, unknown> {
  return isPlainObject(obj.spec) ? obj.spec : {};
}
