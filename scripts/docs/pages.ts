import { fileURLToPath } from 'node:url';
import { commandTree } from '../../src/cli/main.js';
import { projectConfigSchema } from '../../src/project/config.js';
import { fleetFileSchema } from '../../src/project/fleet-file.js';
import { cliReference } from './cli-reference.js';
import { constructEntries, constructsReference } from './constructs-reference.js';
import { schemaReference } from './schema-reference.js';

/** A page of docs/ generated from the code: its path from the repository root and its text. */
export interface GeneratedPage {
  readonly path: string;
  readonly render: () => Promise<string>;
}

const GROUNDWORK_YAML_EXAMPLE = `
name: example-platform
catalogs: [catalogs/community-operators]
environments:
  - { name: dev, overlays: [dev], ref: main }
  - name: prod
    overlays: [prod, clusters/prod-eu-1]
    ref: env/prod
    promotedFrom: dev
    soak: 2h
    windows: [{ days: [Sat], start: '02:00', duration: 4h, timezone: Europe/Berlin }]
    rollout:
      waves:
        - { name: canary, selector: { ring: canary } }
        - { name: ten-percent, percent: 10 }
        - { name: rest }
      maxUnavailable: 10%
      bakeTime: 30m
      windows:
        - { name: stores, windows: [{ days: [Sun], start: '01:00', duration: 3h }] }
    notifications:
      secret: groundwork-alerts
      alerts:
        - { name: chat, type: slack, urlKey: slack-url }
unmanaged:
  ignore:
    - { kind: Secret, name: 'sh.helm.release.*' }
`;

const FLEET_YAML_EXAMPLE = `
clusters:
  - name: prod-eu-1
    context: prod-eu-1
    kubeconfig: ~/.kube/prod
  - context: staging
`;

/**
 * Every generated page. `npm run docs` writes them (scripts/docs/generate.ts);
 * test/docs/generated-pages.test.ts fails when a committed page differs.
 */
export const GENERATED_PAGES: readonly GeneratedPage[] = [
  { path: 'docs/cli.md', render: async () => cliReference(await commandTree(() => {})) },
  {
    path: 'docs/constructs-reference.md',
    render: async () =>
      constructsReference(
        constructEntries(fileURLToPath(new URL('../..', import.meta.url)), 'src/index.ts'),
        'src/index.ts',
      ),
  },
  {
    path: 'docs/groundwork-yaml.md',
    render: async () =>
      schemaReference({
        title: 'groundwork.yaml reference',
        source: 'src/project/config.ts',
        intro:
          '`groundwork.yaml` at the root of a platform repository names the platform and where its parts are; the CLI and the agent read it from the repository at each revision. The smallest valid file is `name: my-platform`. Environments and promotion: [fleet.md](fleet.md); `unmanaged:`: [drift.md](drift.md).',
        example: GROUNDWORK_YAML_EXAMPLE,
        schema: projectConfigSchema,
      }),
  },
  {
    path: 'docs/fleet-yaml.md',
    render: async () =>
      schemaReference({
        title: 'fleet.yaml reference',
        source: 'src/project/fleet-file.ts',
        intro:
          "A fleet file lists the clusters of a fleet and the kube contexts that reach them, for `groundwork fleet status`, `promote` and the dashboard's Fleet page: `--fleet <file>`, else `fleet.yaml` next to groundwork.yaml, else every context of the kubeconfig. See [fleet.md](fleet.md).",
        example: FLEET_YAML_EXAMPLE,
        schema: fleetFileSchema,
      }),
  },
];
