// Kustomize directories rendered by the real kustomize through synth, and the refusals around them.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../../src/render/synth/canonical.js';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import { parseRendered } from '../../../src/render/recorded/rendered-objects.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { kustomizePlatform } from '../../harness/kustomize-platform.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm', 'kustomize');

const run = promisify(execFile);

let kustomize: string;
let tools: RenderTools;
beforeAll(async () => {
  kustomize = await toolPath('kustomize');
  tools = { helm: () => toolPath('helm'), kustomize: async () => kustomize };
});

describe('Kustomization rendered by the real kustomize', () => {
  it('an overlay over a base gives the objects kustomize build gives, with the construct path', async () => {
    const dir = kustomizePlatform('deploy/overlays/prod');
    const [result] = await childSynth(dir, { renderTools: tools });
    const fromBase = result!.manifests.filter((m) => m.source === 'platform/greeter');
    const { stdout } = await run(kustomize, ['build', join(dir, 'deploy/overlays/prod')], {
      env: { PATH: '/usr/bin:/bin', HOME: tmpdir() },
    });
    const expected = parseRendered(stdout).objects.map((o) => canonicalize(o.object));
    expect(fromBase.map((m) => m.object).sort(byId)).toEqual(expected.sort(byId));
    expect(
      fromBase.map((m) => `${m.object.kind}/${m.object.metadata.namespace ?? ''}/${m.object.metadata.name}`),
    ).toEqual(expect.arrayContaining(['Deployment/greeter-prod/prod-greeter', 'Namespace//greeter-prod']));
    const deployment = fromBase.find((m) => m.object.kind === 'Deployment')!;
    expect((deployment.object.spec as { replicas: number }).replicas).toBe(2);
  });

  it('a remote base is refused before kustomize runs', async () => {
    const dir = kustomizePlatform('deploy/remote', {
      'deploy/remote/kustomization.yaml':
        'resources:\n  - ../base\n  - https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v5.8.2\n',
    });
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err).toBeInstanceOf(SynthValidationError);
    expect(err.issues[0]).toMatchObject({ path: 'platform/greeter', field: 'dir' });
    expect(err.issues[0]!.message).toMatch(/remote base/);
    expect(err.issues[0]!.fix).toMatch(/vendor the base/);
  });

  it('a base outside the checkout (../..) is refused, naming the kustomization, never reading it', async () => {
    const outside = platformDir('export default 1;');
    mkdirSync(join(outside, 'base'), { recursive: true });
    writeFileSync(join(outside, 'base/kustomization.yaml'), 'resources:\n  - secret.yaml\n');
    writeFileSync(
      join(outside, 'base/secret.yaml'),
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: hunter2\n',
    );
    const dir = kustomizePlatform('deploy/escape', {
      'deploy/escape/kustomization.yaml': `resources:\n  - ../../../${outside.split('/').pop()}/base\n`,
    });
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/greeter', field: 'dir' });
    expect(err.issues[0]!.message).toMatch(
      /deploy\/escape\/kustomization\.yaml resources: .*outside the repository checkout/,
    );
    expect(err.message).not.toContain('hunter2');
  });

  it('a Kustomization that needs helm inflation or exec plugins fails: kustomize runs without them', async () => {
    const dir = kustomizePlatform('deploy/gen', {
      'deploy/gen/kustomization.yaml': 'generators:\n  - gen.yaml\n',
      'deploy/gen/gen.yaml':
        'apiVersion: example.com/v1\nkind: Exec\nmetadata:\n  name: x\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: /bin/sh\n',
    });
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/greeter', field: 'dir' });
    expect(err.issues[0]!.message).toMatch(/kustomize build failed/);
  });
});

function byId(
  a: { kind: string; metadata: { name: string } },
  b: { kind: string; metadata: { name: string } },
) {
  return `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`);
}
