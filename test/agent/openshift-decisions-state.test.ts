import { describe, expect, it } from 'vitest';
import { INITIAL_AGENT_STATE } from '../../src/agent/agent-state.js';
import { nextAgentState } from '../../src/agent/next-agent-state.js';
import type { ClusterUpdateStatus } from '../../src/cluster-version/update-status.js';
import type { OperatorPinStatus } from '../../src/olm/pin-status.js';

// The agent keeps what the OpenShift hooks decided on its last apply, for the status it writes.

const update: ClusterUpdateStatus = {
  clusterVersion: 'version',
  current: '4.8.2',
  target: '4.9.53',
  steps: [{ from: '4.8.2', to: '4.8.54', state: 'running' }],
  next: '4.8.54',
  action: 'wait',
  reason: 'UpdateInProgress',
  message: 'Working towards 4.8.54',
  risks: [],
};
const pins: OperatorPinStatus[] = [
  { subscription: 'ops/foo', package: 'foo', pin: 'foo.v0.2.0', installPlans: [] },
];

describe('the agent state and the OpenShift decisions', () => {
  const both = nextAgentState(INITIAL_AGENT_STATE, {
    type: 'decided',
    openshift: { clusterUpdate: update, operatorPins: pins },
    partial: false,
  });

  it('keeps what an apply published', () => {
    expect(both.openshift).toEqual({ clusterUpdate: update, operatorPins: pins });
  });

  it('replaces them after a whole apply: a stage with nothing to do publishes nothing and is cleared', () => {
    const next = nextAgentState(both, { type: 'decided', openshift: { operatorPins: pins }, partial: false });
    expect(next.openshift).toEqual({ operatorPins: pins });
  });

  it('keeps the decisions of stages a failed apply did not reach, and takes those it did', () => {
    const blocked = { ...update, action: 'blocked' as const, reason: 'RiskNotAccepted' };
    const next = nextAgentState(both, {
      type: 'decided',
      openshift: { clusterUpdate: blocked },
      partial: true,
    });
    expect(next.openshift).toEqual({ clusterUpdate: blocked, operatorPins: pins });
  });
});
