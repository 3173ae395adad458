// kustomize writes its warnings first and its error last: the problem is the error, and the
// warnings are kept, apart, as warnings.
import { beforeAll, describe, expect, it } from 'vitest';
import { kustomizeFailure } from '../../../src/render/kustomize/kustomize-failure.js';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynthError } from '../../harness/child-synth.js';
import { kustomizePlatform } from '../../harness/kustomize-platform.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('kustomize');

let tools: RenderTools;
beforeAll(() => {
  tools = { helm: () => toolPath('helm'), kustomize: () => toolPath('kustomize') };
});

/** What kustomize v5.8.2 wrote for metrics-server's base (`commonLabels`) naming a missing file. */
const METRICS_SERVER = `# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.
Error: accumulating resources: accumulation err='accumulating resources from 'missing.yaml': evalsymlink failure on '/repo/deploy/metrics-server/missing.yaml' : lstat /repo/deploy/metrics-server/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/repo/deploy/metrics-server/missing.yaml' : lstat /repo/deploy/metrics-server/missing.yaml: no such file or directory
`;

describe('kustomizeFailure: the error, and the warnings apart', () => {
  it("shows kustomize's Error line, not the deprecation warning before it, with paths of the checkout relative", () => {
    const p = kustomizeFailure(METRICS_SERVER, {
      dir: 'deploy/metrics-server',
      roots: ['/repo/deploy/metrics-server'],
      checkout: '/repo',
    });
    expect(p.problem).toMatch(
      /^kustomize build failed: accumulating resources: accumulation err='accumulating resources from 'missing\.yaml': evalsymlink failure on 'deploy\/metrics-server\/missing\.yaml'/,
    );
    expect(p.problem).toContain('no such file or directory');
    expect(p.problem).not.toMatch(/commonLabels|\/repo/);
    expect(p.warnings).toEqual([
      "'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
    ]);
  });

  it('keeps an error without the Error: prefix (the last line that is no warning), and no warnings when there are none', () => {
    const p = kustomizeFailure('# Warning: a\nsomething went wrong\n', { dir: 'app', roots: ['/r/app'] });
    expect(p.problem).toBe('kustomize build failed: something went wrong');
    expect(p.warnings).toEqual(['a']);
    expect(kustomizeFailure('Error: bad\n', { dir: 'app', roots: ['/r/app'] })).not.toHaveProperty(
      'warnings',
    );
  });

  it('keeps at most 5 warnings, each one line', () => {
    const stderr = `${Array.from({ length: 8 }, (_, i) => `# Warning: w${i}\u0007`).join('\n')}\nError: e\n`;
    const p = kustomizeFailure(stderr, { dir: 'app', roots: ['/r/app'] });
    expect(p.warnings).toEqual(['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 ']);
  });
});

describe('a Kustomization that fails, rendered by the real kustomize', () => {
  it('names the missing file as the error and the deprecated field as a warning', async () => {
    const dir = kustomizePlatform('deploy/metrics-server', {
      'deploy/metrics-server/kustomization.yaml':
        'commonLabels:\n  app: metrics-server\nresources:\n  - ../base\n  - missing.yaml\n',
    });
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err).toBeInstanceOf(SynthValidationError);
    const errors = err.issues.filter((i) => i.severity === 'error');
    const warnings = err.issues.filter((i) => i.severity === 'warning');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: 'platform/greeter', field: 'dir' });
    expect(errors[0]!.message).toContain("accumulating resources from 'missing.yaml'");
    expect(errors[0]!.message).toContain("'deploy/metrics-server/missing.yaml'");
    expect(errors[0]!.message).not.toContain(dir);
    expect(warnings).toEqual([
      expect.objectContaining({
        path: 'platform/greeter',
        message: expect.stringMatching(/^kustomize warned: 'commonLabels' is deprecated/),
      }),
    ]);
  });
});
