import { describe, expect, it } from 'vitest';
import { AGENT_MALLOC_ENV, agentDeployment } from '../../src/install/agent-deployment.js';

const deployment = (credentials: boolean) =>
  agentDeployment({
    namespace: 'groundwork-system',
    labels: { app: 'groundwork' },
    image: 'example.com/groundwork:1',
    replicas: 1,
    flags: {},
    credentials,
  });

const envOf = (credentials: boolean) => {
  const spec = deployment(credentials).spec as {
    template: { spec: { containers: { env: { name: string; value?: string }[] }[] } };
  };
  return spec.template.spec.containers[0]!.env;
};

describe('agentDeployment', () => {
  it("sets glibc malloc's arenas and thresholds in the agent's environment, with and without credentials", () => {
    for (const credentials of [false, true]) {
      const env = envOf(credentials);
      expect(env).toEqual(expect.arrayContaining([...AGENT_MALLOC_ENV]));
      const byName = new Map(env.map((e) => [e.name, e.value]));
      expect(byName.get('MALLOC_ARENA_MAX')).toBe('2');
      expect(byName.get('MALLOC_MMAP_THRESHOLD_')).toBe('131072');
      expect(byName.get('MALLOC_TRIM_THRESHOLD_')).toBe('131072');
      // Each variable once: a second entry would leave which one the kubelet takes to chance.
      expect(new Set(env.map((e) => e.name)).size).toBe(env.length);
    }
  });
});
