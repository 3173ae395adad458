import { describe, expect, it } from 'vitest';
import { LocalControlPlane } from '../../../src/dev/controlplane/control-plane.js';

const binaries = {
  kubeApiserver: '/nonexistent/kube-apiserver',
  etcd: '/nonexistent/etcd',
  kubectl: undefined,
  source: 'env' as const,
};

describe('requireControllerManager', () => {
  it('refuses to start without kube-controller-manager, naming what is missing and how to supply it', async () => {
    const err = await LocalControlPlane.start({
      binaries: { ...binaries, kubeControllerManager: undefined },
      requireControllerManager: true,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ControllerManagerMissing' });
    expect(String(err)).toMatch(/TEST_ASSET_KUBE_CONTROLLER_MANAGER/);
  });

  it('refuses a kube-controller-manager path that does not exist', async () => {
    const err = await LocalControlPlane.start({
      binaries: { ...binaries, kubeControllerManager: '/nonexistent/kube-controller-manager' },
      requireControllerManager: true,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ControllerManagerMissing' });
    expect(String(err)).toContain('/nonexistent/kube-controller-manager does not exist');
  });

  it('without it, goes on to start etcd (and fails there on these paths)', async () => {
    const err = await LocalControlPlane.start({
      binaries: { ...binaries, kubeControllerManager: undefined },
    }).catch((e: unknown) => e);
    expect(err).not.toMatchObject({ code: 'ControllerManagerMissing' });
    expect(String(err)).toContain('failed to start etcd');
  });
});
