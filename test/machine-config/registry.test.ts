import { describe, expect, it } from 'vitest';
import { MachineConfig, MachineConfigPool } from '../../src/machine-config/index.js';
import { issueAt, ofKind, synth } from './helpers.js';

const names = (objects: { kind: string; metadata: { name: string } }[]) =>
  ofKind(objects as never, 'MachineConfig').map((o) => o.metadata.name);

describe('platform-wide MachineConfig checks', () => {
  it('rejects a file path declared twice for one role, naming the first declaration', () => {
    const s = synth((p) => {
      new MachineConfig(p, 'a', { pool: 'worker', files: [{ path: '/etc/motd', contents: 'a' }] });
      new MachineConfig(p, 'b', {
        pool: 'worker',
        files: [
          { path: '/etc/issue', contents: 'b' },
          { path: '/etc/motd', contents: 'b' },
        ],
      });
    });
    expect(issueAt(s.errors, 'p/b', 'files[1].path')).toMatchObject({
      message:
        'file /etc/motd is already declared for role worker by p/a (files[0].path); the MCO would silently keep only one',
      fix: 'declare it once per role',
    });
    expect(names(s.objects)).toEqual(['99-worker-a']);
  });

  it('rejects a duplicate inside one MachineConfig, raw and friendly alike', () => {
    const s = synth((p) => {
      new MachineConfig(p, 'a', {
        pool: 'worker',
        ignition: { storage: { files: [{ path: '/etc/motd', contents: { source: 'data:,a' } }] } },
        files: [{ path: '/etc/motd', contents: 'a' }],
      });
    });
    expect(issueAt(s.errors, 'p/a', 'files[0].path').message).toBe(
      'file /etc/motd is already declared for role worker by ignition.storage.files[0].path; the MCO would silently keep only one',
    );
  });

  it('rejects a unit declared twice for one role', () => {
    const s = synth((p) => {
      new MachineConfig(p, 'a', { pool: 'master', units: [{ name: 'x.service', enabled: true }] });
      new MachineConfig(p, 'b', {
        pool: 'master',
        ignition: { systemd: { units: [{ name: 'x.service', mask: true }] } },
      });
    });
    expect(issueAt(s.errors, 'p/b', 'ignition.systemd.units[0].name').message).toBe(
      'unit x.service is already declared for role master by p/a (units[0].name); the MCO would silently keep only one',
    );
  });

  it('allows the same path in different roles, and a custom pool overriding a worker file', () => {
    const s = synth((p) => {
      const infra = new MachineConfigPool(p, 'infra', { name: 'infra' });
      new MachineConfig(p, 'w', { pool: 'worker', files: [{ path: '/etc/motd', contents: 'w' }] });
      new MachineConfig(p, 'm', { pool: 'master', files: [{ path: '/etc/motd', contents: 'm' }] });
      new MachineConfig(p, 'i', { pool: infra, files: [{ path: '/etc/motd', contents: 'i' }] });
    });
    expect(s.issues).toEqual([]);
    expect(names(s.objects)).toEqual(['99-worker-w', '99-master-m', '99-infra-i']);
  });

  it('rejects two MachineConfigs with one name', () => {
    const s = synth((p) => {
      new MachineConfig(p, 'a', { name: '50-worker-x', pool: 'worker', kernelArguments: ['nosmt'] });
      new MachineConfig(p, 'b', { name: '50-worker-x', pool: 'worker', kernelArguments: ['quiet'] });
    });
    expect(issueAt(s.errors, 'p/b', 'name').message).toBe(
      'MachineConfig 50-worker-x is already declared by p/a',
    );
    expect(names(s.objects)).toEqual(['50-worker-x']);
  });

  it('warns when no pool selects a custom role', () => {
    const s = synth((p) => new MachineConfig(p, 'gpu', { pool: 'gpu', kernelArguments: ['nosmt'] }));
    expect(issueAt(s.warnings, 'p/gpu', 'pool')).toMatchObject({
      message:
        'no MachineConfigPool in this platform selects role gpu; unless the cluster has one, this MachineConfig applies nowhere',
      fix: "declare new MachineConfigPool(platform, 'gpu', { name: 'gpu' }) and pass it as pool",
    });
    expect(names(s.objects)).toEqual(['99-gpu-gpu']);
  });

  it("rejects a pool whose rendered config would pass 1.5 MiB, counting an inheriting pool's worker configs", () => {
    const big = (n: number) => ({ path: `/etc/blob${n}`, contents: new Uint8Array(525_000) });
    const s = synth((p) => {
      const infra = new MachineConfigPool(p, 'infra', { name: 'infra' });
      new MachineConfig(p, 'w1', { pool: 'worker', files: [big(1)] });
      new MachineConfig(p, 'w2', { pool: 'worker', files: [big(2)] });
      new MachineConfig(p, 'i1', { pool: infra, files: [big(3)] });
    });
    const issue = issueAt(s.errors, 'p/w1', '');
    expect(issue.message).toMatch(
      /^pool infra's rendered MachineConfig would be at least \d+ bytes \(99-worker-w1, 99-worker-w2, 99-infra-i1\), over the MCO's limit of 1572864 \(1\.5 MiB\)$/,
    );
    expect(issueAt(s.warnings, 'p/w1', '').message).toMatch(
      /^pool worker's rendered MachineConfig would be at least \d+ bytes .* over 80% of the MCO's 1\.5 MiB limit/,
    );
  });
});
