// Issue 31, the cluster layout: repository content runs in the renderer pod, which holds nothing to
// steal. Checked on the objects `bootstrap` applies (and prints) for an agent that holds every
// credential it can: git token, webhook secret, decryption and commit status Secrets.
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { AGENT_POD_LABELS } from '../../src/install/agent-deployment.js';
import { bootstrapObjects } from '../../src/install/bootstrap-objects.js';
import { RENDERER_POD_LABELS, RENDERER_PORT } from '../../src/install/renderer-objects.js';
import { bootstrapSpec } from '../harness/bootstrap-spec.js';

const objects = bootstrapObjects({
  ...bootstrapSpec(),
  credentials: { token: 'planted-git-token' },
  webhookSecret: 'planted-webhook-secret',
  decryptionSecret: 'sops-age',
  commitStatus: { secret: 'forge-token' },
  networkPolicy: {
    egress: {
      apiserver: { addresses: ['10.0.0.1'], ports: [6443] },
      git: { addresses: ['203.0.113.7'], port: 443 },
      dnsServiceAddresses: [],
      extraCidrs: [],
    },
    ingress: { metricsNamespaces: ['monitoring'] },
  },
});
/** The object of `kind` and `name`, as plain JSON (the shape the apiserver would be sent). */
const named = (kind: string, name: string) =>
  JSON.parse(JSON.stringify(objects.find((o) => o.kind === kind && o.metadata.name === name)));
const renderer = named('Deployment', 'groundwork-renderer');
const pod = renderer.spec.template.spec;
const policy = named('NetworkPolicy', 'groundwork-renderer').spec;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('the renderer pod bootstrap installs', () => {
  it('mounts no token, no Secret, and takes no environment from a Secret or ConfigMap', () => {
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(named('ServiceAccount', 'groundwork-renderer').automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('groundwork-renderer');
    const text = JSON.stringify(renderer);
    for (const ref of [
      'secretKeyRef',
      'secretRef',
      'configMapKeyRef',
      'configMapRef',
      '"secret"',
      'projected',
      'hostPath',
    ])
      expect(text).not.toContain(ref);
    for (const value of ['planted-git-token', 'planted-webhook-secret', 'sops-age', 'forge-token'])
      expect(text).not.toContain(value);
    expect(
      pod.volumes.every((v: Record<string, unknown>) => Object.keys(v).sort().join() === 'emptyDir,name'),
    ).toBe(true);
    const [container] = pod.containers;
    expect(container.envFrom).toBeUndefined();
    expect(container.env.every((e: Record<string, unknown>) => typeof e.value === 'string')).toBe(true);
    expect(container.env).toContainEqual({ name: 'GROUNDWORK_RENDERER_POD', value: '1' });
    expect(container.args.slice(0, 1)).toEqual(['renderer']);
  });

  it('runs non-root, without capabilities, on a read-only root, under a memory limit', () => {
    const [container] = pod.containers;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources.limits.memory).toMatch(/^\d+Mi$/);
    expect(container.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toContain('/tmp');
  });

  it('is bound to no role', () => {
    const bindings = objects.filter((o) => /Binding$/.test(o.kind)) as (K8sObject & {
      subjects?: { name: string }[];
    })[];
    expect(bindings.length).toBeGreaterThan(0);
    expect(bindings.flatMap((b) => b.subjects ?? []).map((s) => s.name)).not.toContain('groundwork-renderer');
  });

  it("denies all its egress and admits only the agent's pods, on its port", () => {
    expect(policy.podSelector.matchLabels).toEqual(RENDERER_POD_LABELS);
    expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.egress).toEqual([]);
    expect(policy.ingress).toEqual([
      {
        from: [{ podSelector: { matchLabels: AGENT_POD_LABELS } }],
        ports: [{ protocol: 'TCP', port: RENDERER_PORT }],
      },
    ]);
    // The selectors tell the two apart: the agent's labels select no renderer pod, and back.
    const agentPod = named('Deployment', 'groundwork-agent').spec.template.metadata.labels;
    expect(selects(AGENT_POD_LABELS, agentPod)).toBe(true);
    expect(selects(AGENT_POD_LABELS, renderer.spec.template.metadata.labels)).toBe(false);
    expect(selects(RENDERER_POD_LABELS, agentPod)).toBe(false);
  });

  it("points the agent at it, and lets the agent's NetworkPolicy reach it", () => {
    const args = named('Deployment', 'groundwork-agent').spec.template.spec.containers[0].args as string[];
    expect(args.slice(args.indexOf('--renderer'), args.indexOf('--renderer') + 2)).toEqual([
      '--renderer',
      `http://groundwork-renderer.groundwork-system.svc:${RENDERER_PORT}`,
    ]);
    expect(named('Service', 'groundwork-renderer').spec.selector).toEqual(RENDERER_POD_LABELS);
    expect(named('NetworkPolicy', 'groundwork-agent').spec.egress).toContainEqual({
      to: [{ podSelector: { matchLabels: RENDERER_POD_LABELS } }],
      ports: [{ protocol: 'TCP', port: RENDERER_PORT }],
    });
  });
});
