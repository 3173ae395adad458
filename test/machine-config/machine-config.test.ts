import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { decodeDataUrl, MachineConfig, MachineConfigPool } from '../../src/machine-config/index.js';
import { expectGolden } from '../harness/golden.js';
import { crdErrors, MC_CRD, MCP_CRD, ofKind, synth } from './helpers.js';

const golden = (name: string) => fileURLToPath(new URL(`./golden/${name}`, import.meta.url));

/** A platform that uses every part of the API once. */
function example(version = '4.16') {
  return synth((platform) => {
    const infra = new MachineConfigPool(platform, 'infra', {
      name: 'infra',
      maxUnavailable: '25%',
      maintenanceWindows: [
        { days: ['Sat', 'Sun'], start: '02:00', duration: '4h', timezone: 'Europe/Berlin' },
      ],
    });
    new MachineConfigPool(platform, 'worker', { name: 'worker', maxUnavailable: 2 });
    new MachineConfigPool(platform, 'master', {
      name: 'master',
      managePause: true,
      maintenanceWindows: [{ start: '22:00', duration: '90m' }],
    });
    new MachineConfig(platform, 'chrony', {
      pool: 'worker',
      files: [
        {
          path: '/etc/chrony.conf',
          mode: '0644',
          contents: 'server ntp.example.com iburst\ndriftfile /var/lib/chrony/drift\n',
        },
      ],
      units: [
        {
          name: 'chronyd.service',
          enabled: true,
          dropins: [{ name: '10-restart.conf', contents: '[Service]\nRestart=always\n' }],
        },
      ],
    });
    new MachineConfig(platform, 'Tuning', {
      pool: infra,
      files: [
        { path: '/usr/local/bin/tune.sh', mode: 0o755, contents: { text: '#!/bin/sh\necho tuned\n' } },
        { path: '/etc/tune/blob', mode: '0600', contents: new Uint8Array([0, 1, 2, 255]) },
        { path: '/etc/tune/b64', contents: { base64: 'aGVsbG8=' }, overwrite: false },
      ],
      units: [
        {
          name: 'tune.service',
          enabled: true,
          contents:
            '[Unit]\nDescription=Tune\n[Service]\nExecStart=/usr/local/bin/tune.sh\n[Install]\nWantedBy=multi-user.target\n',
        },
        { name: 'bluetooth.service', mask: true },
      ],
      kernelArguments: ['nosmt', 'mitigations=auto'],
      extensions: ['usbguard'],
      kernelType: 'realtime',
    });
    new MachineConfig(platform, 'ssh', {
      name: '50-master-extra-ssh',
      pool: 'master',
      ignition: {
        passwd: { users: [{ name: 'core', sshAuthorizedKeys: ['ssh-ed25519 AAAA admin@example.com'] }] },
      },
    });
  }, version);
}

describe('MachineConfig emission', () => {
  it('emits the example platform (golden)', () => {
    const s = example();
    expect(s.issues).toEqual([]);
    expectGolden(golden('example-4.16.yaml'), stringify(s.objects));
  });

  it('emits objects the CRDs accept', () => {
    const { objects } = example();
    for (const mc of ofKind(objects, 'MachineConfig'))
      expect(crdErrors(MC_CRD, mc), mc.metadata.name).toEqual([]);
    for (const mcp of ofKind(objects, 'MachineConfigPool'))
      expect(crdErrors(MCP_CRD, mcp), mcp.metadata.name).toEqual([]);
  });

  it('names configs 99-<role>-<id>, labels them with the pool role', () => {
    const { objects } = example();
    expect(ofKind(objects, 'MachineConfig').map((o) => [o.metadata.name, o.metadata.labels])).toEqual([
      ['99-worker-chrony', { 'machineconfiguration.openshift.io/role': 'worker' }],
      ['99-infra-tuning', { 'machineconfiguration.openshift.io/role': 'infra' }],
      ['50-master-extra-ssh', { 'machineconfiguration.openshift.io/role': 'master' }],
    ]);
  });

  it.each([
    ['4.8', '3.2.0'],
    ['4.12', '3.2.0'],
    ['4.13.40', '3.2.0'],
    ['4.14', '3.4.0'],
    ['4.16.3', '3.4.0'],
    ['4.18', '3.4.0'],
    ['4.19', '3.5.0'],
    ['4.22', '3.5.0'],
  ])('OpenShift %s renders Ignition %s', (version, ignition) => {
    const { objects, errors } = synth(
      (p) => new MachineConfig(p, 'x', { pool: 'worker', kernelArguments: ['nosmt'] }),
      version,
    );
    expect(errors).toEqual([]);
    expect(
      (ofKind(objects, 'MachineConfig')[0]!.spec as { config: { ignition: { version: string } } }).config
        .ignition.version,
    ).toBe(ignition);
  });
});

/** The Ignition 3.x shape the MCO parses (the subset Groundwork emits), strict so nothing stray passes. */
const ignitionShape = z.strictObject({
  ignition: z.strictObject({ version: z.enum(['3.2.0', '3.4.0', '3.5.0']) }),
  storage: z
    .strictObject({
      files: z.array(
        z.strictObject({
          path: z.string().startsWith('/'),
          mode: z.number().int().min(0).max(0o777),
          overwrite: z.boolean(),
          contents: z.strictObject({ source: z.string().startsWith('data:') }),
        }),
      ),
    })
    .optional(),
  systemd: z
    .strictObject({
      units: z.array(
        z.strictObject({
          name: z.string(),
          enabled: z.boolean().optional(),
          mask: z.boolean().optional(),
          contents: z.string().optional(),
          dropins: z
            .array(z.strictObject({ name: z.string().endsWith('.conf'), contents: z.string() }))
            .optional(),
        }),
      ),
    })
    .optional(),
  passwd: z.unknown().optional(),
});

describe('spec.config as Ignition', () => {
  const configs = () =>
    ofKind(example().objects, 'MachineConfig').map(
      (o) => JSON.parse(JSON.stringify((o.spec as { config: unknown }).config)) as unknown,
    );

  it('decodes as Ignition with files[].contents.source, decimal modes and units[].dropins', () => {
    const [chrony, tuning] = configs().map((c) => ignitionShape.parse(c));
    expect(chrony!.storage!.files[0]).toMatchObject({ path: '/etc/chrony.conf', mode: 420, overwrite: true });
    expect(chrony!.systemd!.units[0]!.dropins).toEqual([
      { name: '10-restart.conf', contents: '[Service]\nRestart=always\n' },
    ]);
    expect(tuning!.storage!.files.map((f) => f.mode)).toEqual([493, 384, 420]);
    expect(tuning!.storage!.files[2]!.overwrite).toBe(false);
    expect(tuning!.systemd!.units.map((u) => u.name)).toEqual(['tune.service', 'bluetooth.service']);
  });

  it('carries each file content byte for byte in its data: URL', () => {
    const [chrony, tuning] = configs().map((c) => ignitionShape.parse(c));
    const text = (source: string) => Buffer.from(decodeDataUrl(source)!).toString('utf8');
    expect(chrony!.storage!.files[0]!.contents.source).toBe(
      'data:,server%20ntp.example.com%20iburst%0Adriftfile%20%2Fvar%2Flib%2Fchrony%2Fdrift%0A',
    );
    expect(text(chrony!.storage!.files[0]!.contents.source)).toBe(
      'server ntp.example.com iburst\ndriftfile /var/lib/chrony/drift\n',
    );
    expect(text(tuning!.storage!.files[0]!.contents.source)).toBe('#!/bin/sh\necho tuned\n');
    expect([...decodeDataUrl(tuning!.storage!.files[1]!.contents.source)!]).toEqual([0, 1, 2, 255]);
    expect(tuning!.storage!.files[2]!.contents.source).toBe('data:;base64,aGVsbG8=');
    expect(text(tuning!.storage!.files[2]!.contents.source)).toBe('hello');
  });

  it('puts raw Ignition entries first and friendly ones after, keeping raw fields', () => {
    const { objects, errors } = synth(
      (p) =>
        new MachineConfig(p, 'mixed', {
          pool: 'worker',
          ignition: {
            storage: {
              files: [
                {
                  path: '/etc/raw',
                  mode: 384,
                  contents: { source: 'data:,raw', compression: '' },
                  user: { name: 'root' },
                },
              ],
            },
            systemd: { units: [{ name: 'raw.service', enabled: false }] },
          },
          files: [{ path: '/etc/friendly', contents: 'f' }],
          units: [{ name: 'friendly.service', enabled: true }],
        }),
    );
    expect(errors).toEqual([]);
    const config = (
      ofKind(objects, 'MachineConfig')[0]!.spec as {
        config: {
          storage: { files: { path: string; user?: unknown }[] };
          systemd: { units: { name: string }[] };
        };
      }
    ).config;
    expect(config.storage.files.map((f) => f.path)).toEqual(['/etc/raw', '/etc/friendly']);
    expect(config.storage.files[0]!.user).toEqual({ name: 'root' });
    expect(config.systemd.units.map((u) => u.name)).toEqual(['raw.service', 'friendly.service']);
  });
});
