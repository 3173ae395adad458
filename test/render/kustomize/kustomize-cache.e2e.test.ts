// Kustomize renders kept in the render cache by what kustomize could read: observed through a
// GROUNDWORK_KUSTOMIZE-style wrapper of the real kustomize that logs each call. The cache is the
// renderer's trust domain's (`<cache>/render/local/renders`).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { kustomizePlatform } from '../../harness/kustomize-platform.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm', 'kustomize');

let work: string;
let calls: string;
let counted: RenderTools;
let saved: string | undefined;
beforeAll(async () => {
  const kustomize = await toolPath('kustomize');
  const helm = await toolPath('helm');
  const bin = mkdtempSync(join(tmpdir(), 'gw-kustomize-bin-'));
  calls = join(bin, 'calls');
  const wrapper = join(bin, 'kustomize');
  writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> ${calls}\nexec ${kustomize} "$@"\n`, { mode: 0o755 });
  counted = { helm: async () => helm, kustomize: async () => wrapper };
});
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'gw-kustomize-cache-'));
  writeFileSync(calls, '');
  saved = process.env.GROUNDWORK_CACHE_DIR;
  process.env.GROUNDWORK_CACHE_DIR = join(work, 'cache');
});
afterEach(() => {
  if (saved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  else process.env.GROUNDWORK_CACHE_DIR = saved;
});

const count = () => readFileSync(calls, 'utf8').split('\n').filter(Boolean).length;

/**
 * The wrapper logs to a file of this test and starts the real kustomize beside it: neither is in
 * the isolated renderer's view, so these renders run trusted (no isolation: the cache is under
 * test here, the isolation in test/security). The render cache as GROUNDWORK_SYNTH_CACHE says.
 */
const counting = () => ({
  renderTools: counted,
  trustRepository: true,
  isolation: { userNamespaces: false, rootNamespaces: false },
  cache: process.env.GROUNDWORK_SYNTH_CACHE !== '0',
});

const imageOf = (result: Awaited<ReturnType<typeof childSynth>>[number]) =>
  (
    result.manifests.find((m) => m.object.kind === 'Deployment')!.object.spec as {
      template: { spec: { containers: { image: string }[] } };
    }
  ).template.spec.containers[0]!.image;

describe('the kustomize render cache', () => {
  it('renders once, then takes the same output from the cache (kustomize not started); another checkout of the same files hits too', async () => {
    const dir = kustomizePlatform();
    const [first] = await childSynth(dir, counting());
    expect(count()).toBe(1);
    const [second] = await childSynth(dir, counting());
    expect(count()).toBe(1);
    expect(second!.hash).toBe(first!.hash);
    const [elsewhere] = await childSynth(kustomizePlatform(), counting());
    expect(count()).toBe(1);
    expect(elsewhere!.hash).toBe(first!.hash);
  });

  it('a change to a file of a base renders again, with the change', async () => {
    const dir = kustomizePlatform();
    const [first] = await childSynth(dir, counting());
    const base = join(dir, 'deploy/base/deployment.yaml');
    const image = imageOf(first!);
    writeFileSync(base, readFileSync(base, 'utf8').replace(image, 'example.com/greeter:changed'));
    const [second] = await childSynth(dir, counting());
    expect(count()).toBe(2);
    expect(imageOf(second!)).toBe('example.com/greeter:changed');
    // A file no kustomization names, under a kustomization root, counts too (kustomize may read it).
    writeFileSync(join(dir, 'deploy/overlays/prod/notes.txt'), 'x\n');
    await childSynth(dir, counting());
    expect(count()).toBe(3);
    // A file outside every kustomization root does not.
    writeFileSync(join(dir, 'README.md'), 'x\n');
    await childSynth(dir, counting());
    expect(count()).toBe(3);
  });

  it('a symbolic link in a base is keyed by its target: a change to the target renders again', async () => {
    const dir = kustomizePlatform();
    // kustomize follows a link only to a file under the same root (a target elsewhere is its
    // "security; file ... is not in or below" refusal), so the link stays inside the base.
    mkdirSync(join(dir, 'deploy/base/shared'));
    const service = join(dir, 'deploy/base/service.yaml');
    const target = join(dir, 'deploy/base/shared/service.yaml');
    cpSync(service, target);
    rmSync(service);
    symlinkSync('shared/service.yaml', service);
    await childSynth(dir, counting());
    await childSynth(dir, counting());
    expect(count()).toBe(1);
    writeFileSync(target, readFileSync(target, 'utf8').replace('port: 80', 'port: 8443'));
    const [changed] = await childSynth(dir, counting());
    expect(count()).toBe(2);
    const svc = changed!.manifests.find((m) => m.object.kind === 'Service')!.object;
    expect(JSON.stringify(svc.spec)).toContain('8443');
  });

  it('with a warm cache, a link out of the checkout and a transformer directory outside it are still refused, and kustomize is not started', async () => {
    const dir = kustomizePlatform();
    await childSynth(dir, counting());
    expect(count()).toBe(1);

    const outside = mkdtempSync(join(tmpdir(), 'gw-outside-'));
    writeFileSync(join(outside, 'secret.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: hunter2\n');
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'deploy/base/leak.yaml'));
    const linked = await childSynthError(dir, counting());
    expect(linked.code).toBe('SymlinkOutsideCheckout');
    expect(linked.message).not.toContain('hunter2');

    const hostile = kustomizePlatform('deploy/overlays/hostile', {
      'deploy/overlays/hostile/kustomization.yaml': `resources:\n  - ../../base\ntransformers:\n  - ../../../../${outside.split('/').pop()}\n`,
    });
    writeFileSync(join(outside, 'kustomization.yaml'), 'resources:\n  - secret.yaml\n');
    const err = (await childSynthError(hostile, counting())) as SynthValidationError;
    expect(err).toBeInstanceOf(SynthValidationError);
    expect(err.issues[0]).toMatchObject({ path: 'platform/greeter', field: 'dir' });
    expect(err.issues[0]!.message).toMatch(
      /kustomization\.yaml transformers: .*outside the repository checkout/,
    );
    expect(err.message).not.toContain('hunter2');
    expect(count()).toBe(1);
  });

  it('GROUNDWORK_SYNTH_CACHE=0 renders every time and stores nothing', async () => {
    const dir = kustomizePlatform();
    const before = process.env.GROUNDWORK_SYNTH_CACHE;
    process.env.GROUNDWORK_SYNTH_CACHE = '0';
    try {
      await childSynth(dir, counting());
      await childSynth(dir, counting());
    } finally {
      if (before === undefined) delete process.env.GROUNDWORK_SYNTH_CACHE;
      else process.env.GROUNDWORK_SYNTH_CACHE = before;
    }
    expect(count()).toBe(2);
    expect(existsSync(join(work, 'cache/render/local/renders'))).toBe(false);
  });
});
