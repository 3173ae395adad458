// A chart's rendered objects are held to the checks of any construct: the apiserver's name rules
// and the domains' whole-platform checks (POST_SYNTH_CHECKS), run after the charts render.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

let tools: RenderTools;
beforeAll(async () => {
  const helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
});

/** A platform with one chart `charts/hostile` whose templates are `templates`. */
function hostileChart(templates: Record<string, string>): string {
  const files: Record<string, string> = {
    'charts/hostile/Chart.yaml': 'apiVersion: v2\nname: hostile\nversion: 0.1.0\n',
  };
  for (const [name, text] of Object.entries(templates)) files[`charts/hostile/templates/${name}`] = text;
  return platformDir(
    `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'hostile', { chart: 'charts/hostile', namespace: 'demo' });
  },
});
`,
    { files },
  );
}

describe("a chart's rendered objects are checked like a construct's", () => {
  it('an invalid object name and an invalid namespace fail synth on the construct path, naming the template', async () => {
    const dir = hostileChart({
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\ndata: {}\n',
      'svc.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: Not..A_Namespace\nspec:\n  ports: [{ port: 80 }]\n',
      'ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\ndata: {}\n',
    });
    const err = await childSynthError(dir, { renderTools: tools });
    expect(err).toBeInstanceOf(SynthValidationError);
    const issues = (err as SynthValidationError).issues.filter((i) => i.severity === 'error');
    expect(issues).toHaveLength(2);
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'platform/hostile',
        field: 'hostile/templates/cm.yaml metadata.name',
        message: expect.stringMatching(/ConfigMap name "Bad_Name" is not a DNS-1123 subdomain/),
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'platform/hostile',
        field: 'hostile/templates/svc.yaml metadata.namespace',
        message: expect.stringMatching(/namespace "Not\.\.A_Namespace" is not a DNS-1123 label/),
      }),
    );
  });

  it("a Subscription rendered by a chart gets the domains' checks (no source: an error on the construct)", async () => {
    const dir = hostileChart({
      'sub.yaml':
        'apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: op\nspec:\n  name: op\n  channel: stable\n',
    });
    const err = await childSynthError(dir, { renderTools: tools });
    expect(err).toBeInstanceOf(SynthValidationError);
    const issues = (err as SynthValidationError).issues.filter((i) => i.severity === 'error');
    expect(issues.map((i) => [i.path, i.field])).toEqual([
      ['platform/hostile', 'spec.source'],
      ['platform/hostile', 'spec.sourceNamespace'],
    ]);
  });

  it('a valid chart still synthesizes, and the OperatorGroup warning reaches the result', async () => {
    const dir = hostileChart({
      'sub.yaml':
        'apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: op\nspec:\n  name: op\n  channel: stable\n  source: redhat-operators\n  sourceNamespace: openshift-marketplace\n',
    });
    const [result] = await childSynth(dir, { renderTools: tools });
    expect(
      result!.manifests.map(
        (m) => `${m.object.kind}/${m.object.metadata.namespace}/${m.object.metadata.name}`,
      ),
    ).toContain('Subscription/demo/op');
    expect(result!.warnings).toContainEqual(
      expect.objectContaining({
        path: 'platform/hostile',
        severity: 'warning',
        message: expect.stringMatching(/OperatorGroup/),
      }),
    );
  });
});
