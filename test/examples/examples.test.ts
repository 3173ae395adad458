import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadFleetFile } from '../../src/project/fleet-file.js';
import { loadProjectConfig } from '../../src/project/config.js';
import { POST_SYNTH_CHECKS } from '../../src/reconcile/domains.js';
import { renderPlatform } from '../../src/render/render-platform.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import { parseAgeIdentities } from '../../src/secrets/age-identities.js';
import { decryptSopsSecrets } from '../../src/secrets/decrypt-secrets.js';
import { tool, useTools } from '../harness/tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const NAMES = ['charts-and-secrets', 'fleet', 'openshift-platform'];

useTools('helm', 'kustomize');

/** Every overlay of `examples/<name>`, rendered as `groundwork synth --all-overlays` renders it. */
async function synthAll(name: string): Promise<Map<string, SynthResult>> {
  const results = await renderPlatform(`${examples}${name}`, {
    overlay: { all: true },
    domain: 'local',
    cache: false,
    checks: POST_SYNTH_CHECKS,
    tools: { helm: (await tool('helm')).path, kustomize: (await tool('kustomize')).path },
  });
  return new Map(results.map((r) => [r.overlay, r]));
}

/** The object `kind/[namespace/]name` of a result; fails the test when it is not there. */
function object(result: SynthResult | undefined, kind: string, name: string, namespace?: string) {
  const found = result?.manifests.find(
    (m) =>
      m.object.kind === kind && m.object.metadata.name === name && m.object.metadata.namespace === namespace,
  );
  if (!found) throw new Error(`${result?.overlay}: no ${kind} ${namespace ?? ''}/${name}`);
  return found.object as {
    spec?: Record<string, unknown>;
    data?: Record<string, string>;
  } & typeof found.object;
}

describe('examples/openshift-platform', () => {
  it('renders dev and prod: the pinned Kepler waits for Manual approval at its CSV, the pool, the version target', async () => {
    const results = await synthAll('openshift-platform');
    expect([...results.keys()].sort()).toEqual(['dev', 'prod']);
    for (const [overlay, csv, version] of [
      ['dev', 'kepler-operator.v0.24.0', '4.16.20'],
      ['prod', 'kepler-operator.v0.22.0', '4.14.38'],
    ] as const) {
      const result = results.get(overlay);
      expect(result?.warnings).toEqual([]);
      expect(object(result, 'Subscription', 'kepler-operator', 'kepler-operator').spec).toMatchObject({
        installPlanApproval: 'Manual',
        startingCSV: csv,
        source: 'community-operators',
      });
      expect(object(result, 'MachineConfigPool', 'infra').spec).toMatchObject({
        maxUnavailable: overlay === 'dev' ? 2 : 1,
      });
      object(result, 'MachineConfig', '50-worker-chrony');
      object(result, 'MachineConfig', '99-infra-infra-hugepages');
      expect(JSON.stringify(object(result, 'ClusterVersion', 'version'))).toContain(version);
    }
  }, 120_000);
});

describe('examples/charts-and-secrets', () => {
  it('renders the chart with the overlay replicas, the Kustomize overlay, and a Secret the example key opens', async () => {
    const dir = `${examples}charts-and-secrets`;
    const results = await synthAll('charts-and-secrets');
    expect([...results.keys()].sort()).toEqual(['dev', 'prod']);
    expect(object(results.get('dev'), 'Deployment', 'web', 'web').spec).toMatchObject({ replicas: 1 });
    expect(object(results.get('prod'), 'Deployment', 'web', 'web').spec).toMatchObject({ replicas: 3 });
    object(results.get('dev'), 'Service', 'web', 'web');
    const quota = (overlay: string) =>
      object(results.get(overlay), 'ResourceQuota', 'team-quota', 'web').spec;
    expect(quota('dev')).toMatchObject({ hard: { 'requests.cpu': '2' } });
    expect(quota('prod')).toMatchObject({ hard: { 'requests.cpu': '8' } });
    object(results.get('dev'), 'LimitRange', 'team-limits', 'web');

    // Synth holds ciphertext only; the committed example-only key opens it, as the agent's would.
    const dev = results.get('dev')!;
    expect(JSON.stringify(dev.manifests)).not.toContain('example-only-not-a-secret');
    const ids = await parseAgeIdentities(readFileSync(`${dir}/example-only.agekey`, 'utf8'));
    const open = await decryptSopsSecrets(dev, async () => ids);
    const secret = open.manifests.find((m) => m.object.kind === 'Secret')!.object as {
      data?: Record<string, string>;
    };
    expect(Buffer.from(secret.data?.password ?? '', 'base64').toString()).toBe('example-only-not-a-secret');
    expect(readFileSync(`${dir}/example-only.agekey`, 'utf8')).toMatch(/^# EXAMPLE ONLY/);
  }, 120_000);
});

describe('examples/fleet', () => {
  it('renders every cluster overlay, each environment names its own, and fleet.yaml lists the clusters', async () => {
    const dir = `${examples}fleet`;
    const results = await synthAll('fleet');
    const config = await loadProjectConfig(dir);
    const inEnvironments = (config.environments ?? []).flatMap((e) => e.overlays);
    expect(config.environments?.map((e) => [e.name, e.ref, e.promotedFrom])).toEqual([
      ['dev', 'main', undefined],
      ['staging', 'env/staging', 'dev'],
      ['prod', 'env/prod', 'staging'],
    ]);
    for (const overlay of inEnvironments) expect(results.has(overlay), overlay).toBe(true);
    const info = (overlay: string) =>
      object(results.get(overlay), 'ConfigMap', 'cluster-info', 'platform-config').data;
    expect(info('clusters/prod-eu-1')).toEqual({ environment: 'prod', region: 'eu-central' });
    expect(info('clusters/prod-us-1')).toEqual({ environment: 'prod', region: 'us-east' });
    expect(info('dev')).toEqual({ environment: 'dev', region: 'local' });
    const ingress = (overlay: string) =>
      object(results.get(overlay), 'IngressController', 'default', 'openshift-ingress-operator').spec;
    expect(ingress('clusters/prod-eu-1')).toEqual({ replicas: 3 });
    expect(ingress('clusters/prod-us-1')).toEqual({ replicas: 4 });
    expect(JSON.stringify(object(results.get('staging'), 'ClusterVersion', 'version'))).toContain('4.15.30');

    const fleet = await loadFleetFile({ file: `${dir}/fleet.yaml` });
    expect(fleet.map((m) => m.name)).toEqual(['dev-1', 'staging-1', 'prod-eu-1', 'prod-us-1']);
  }, 120_000);
});

describe('the examples', () => {
  it('are the three this test renders', () => {
    expect(
      readdirSync(examples, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort(),
    ).toEqual(NAMES);
  });

  it("platform code type-checks with 'groundwork-gitops' as src/index.ts (file:line: message for each problem)", () => {
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const files = NAMES.flatMap((n) =>
      readdirSync(join(examples, n, 'platform'))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(examples, n, 'platform', f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    const program = ts.createProgram({
      rootNames: files,
      // Each example is a package of its own (package.json): the import resolves as in a platform repository.
      options: { ...options, noEmit: true, paths: { 'groundwork-gitops': [join(root, 'src/index.ts')] } },
    });
    const problems = files.flatMap((f) => {
      const source = program.getSourceFile(f)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
        (d) => {
          const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
          return `${relative(root, f)}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
        },
      );
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
