import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { offlineLauncher, runTool } from '../../../src/render/recorded/run-tool.js';

const base = { args: [], cwd: '/', timeoutMs: 10_000, outputCapBytes: 1024 * 1024 };
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('runTool: how helm and kustomize are started on repository content', () => {
  it('passes nothing of the parent environment: no kubeconfig, no credentials, a home of its own that is removed', async () => {
    process.env.KUBECONFIG = '/root/.kube/config';
    process.env.KUBERNETES_SERVICE_HOST = '10.0.0.1';
    process.env.AWS_SECRET_ACCESS_KEY = 'hunter2';
    process.env.HELM_REGISTRY_CONFIG = '/root/.config/helm/registry/config.json';
    const outcome = await runTool({ ...base, binary: '/usr/bin/env' });
    expect(outcome.ok).toBe(true);
    const env = Object.fromEntries(
      (outcome.ok ? outcome.stdout : '')
        .trim()
        .split('\n')
        .map((l) => l.split(/=(.*)/s, 2) as [string, string]),
    );
    expect(Object.keys(env).sort()).toEqual([
      'HELM_CACHE_HOME',
      'HELM_CONFIG_HOME',
      'HELM_DATA_HOME',
      'HOME',
      'KUBECONFIG',
      'LANG',
      'PATH',
      'XDG_CACHE_HOME',
      'XDG_CONFIG_HOME',
      'XDG_DATA_HOME',
    ]);
    expect(env.KUBECONFIG!.startsWith(env.HOME!)).toBe(true);
    expect(existsSync(env.KUBECONFIG!)).toBe(false);
    expect(existsSync(env.HOME!)).toBe(false);
  });

  it('runs without a network where the kernel allows a network namespace (here it does): only loopback', async () => {
    expect(offlineLauncher()).not.toBeNull();
    // /proc/net/dev lists the interfaces of the process's own network namespace.
    const outcome = await runTool({ ...base, binary: '/bin/cat', args: ['/proc/self/net/dev'] });
    const interfaces = (outcome.ok ? outcome.stdout : '')
      .split('\n')
      .slice(2)
      .map((l) => l.split(':')[0]!.trim())
      .filter(Boolean);
    expect(interfaces).toEqual(['lo']);
  });

  it('stops a tool past its time', async () => {
    expect(await runTool({ ...base, binary: '/bin/sleep', args: ['30'], timeoutMs: 300 })).toEqual({
      ok: false,
      reason: 'timeout',
    });
  });

  it('stops a tool past its output cap', async () => {
    expect(await runTool({ ...base, binary: '/usr/bin/yes', outputCapBytes: 64 * 1024 })).toEqual({
      ok: false,
      reason: 'output-cap',
    });
  });

  it('reports a failed tool with its stderr', async () => {
    const outcome = await runTool({
      ...base,
      binary: '/bin/sh',
      args: ['-c', 'echo "Error: boom" >&2; exit 3'],
    });
    expect(outcome).toEqual({ ok: false, reason: 'exit', code: 3, stderr: 'Error: boom\n' });
  });
});
