import { z } from 'zod';
import { bootstrapObjects, type BootstrapSpec } from '../../src/install/bootstrap-objects.js';
import { agentRbac, type AgentRbac, type AgentRbacInput } from '../../src/install/rbac.js';

/** The agent's RBAC input of `bootstrapSpec`, for tests that add a grant to it. */
export const BOOTSTRAP_RBAC: AgentRbacInput = {
  objects: [],
  namespace: 'groundwork-system',
  inventory: { namespace: 'groundwork-system', name: 'inv' },
};

/**
 * What `groundwork bootstrap` hands `bootstrapObjects` for platform `shop`, overlay `prod`, in
 * `groundwork-system`, with the agent's RBAC made from `BOOTSTRAP_RBAC` plus `rbac`.
 */
export function bootstrapSpec(rbac: Partial<AgentRbacInput> = {}): BootstrapSpec {
  return {
    platform: 'shop',
    overlay: 'prod',
    namespace: 'groundwork-system',
    repository: { url: 'https://github.com/acme/platform.git', ref: { branch: 'main' } },
    mode: 'self-heal',
    interval: '60s',
    image: 'groundwork:test',
    replicas: 1,
    rbac: agentRbac({ ...BOOTSTRAP_RBAC, ...rbac }),
  };
}

const deploymentSchema = z.object({
  spec: z.object({
    template: z.object({ spec: z.object({ containers: z.array(z.object({ args: z.array(z.string()) })) }) }),
  }),
});

/** The agent container's args in the Deployment `bootstrapObjects` makes. */
export function agentArgs(spec: BootstrapSpec): string[] {
  const deployment = deploymentSchema.parse(bootstrapObjects(spec).find((o) => o.kind === 'Deployment'));
  return deployment.spec.template.spec.containers[0]!.args;
}

/** A flag and the value after it in `args` (`['--x', 'v']`), or `[]` when absent. */
export function flagWithValue(args: readonly string[], flag: string): string[] {
  const at = args.indexOf(flag);
  return at < 0 ? [] : args.slice(at, at + 2);
}

/** The Secret names the agent may `get` in `namespace`; `<every Secret>` for a rule without names. */
export function readableSecrets(rbac: AgentRbac, namespace = 'groundwork-system'): string[] {
  const own = rbac.namespaced.find((n) => n.namespace === namespace)?.rules ?? [];
  return own
    .filter((r) => r.resources.includes('secrets') && r.verbs.includes('get'))
    .flatMap((r) => r.resourceNames ?? ['<every Secret>']);
}
