import { describe, expect, it } from 'vitest';
import { MachineConfig } from '../../src/machine-config/index.js';
import { issueAt, ofKind, synth } from './helpers.js';

/** A MachineConfig `p/mc` on worker with raw Ignition only. */
function raw(ignition: Record<string, unknown>, version = '4.16') {
  return synth((p) => new MachineConfig(p, 'mc', { pool: 'worker', ignition }), version);
}

function rejected(ignition: Record<string, unknown>, field: string) {
  const s = raw(ignition);
  expect(ofKind(s.objects, 'MachineConfig')).toEqual([]);
  return issueAt(s.errors, 'p/mc', field);
}

describe('raw Ignition escape hatch', () => {
  it('accepts what the MCO applies and keeps unknown fields of files and units', () => {
    const s = raw({
      ignition: { version: '3.4.0' },
      storage: {
        files: [{ path: '/etc/a', mode: 420, contents: { source: 'data:;base64,aGk=' } }],
        directories: [],
        links: [],
      },
      systemd: { units: [{ name: 'a.service', enabled: true, dropins: [{ name: 'x.conf', contents: '' }] }] },
      passwd: { users: [{ name: 'core', sshAuthorizedKeys: ['ssh-ed25519 AAAA'], passwordHash: '$6$x' }] },
    });
    expect(s.errors).toEqual([]);
    expect(ofKind(s.objects, 'MachineConfig')).toHaveLength(1);
  });

  it.each([
    [
      'directories',
      { storage: { directories: [{ path: '/var/x' }] } },
      'ignition.storage.directories',
      'storage.directories is not supported by the MCO',
    ],
    [
      'links',
      { storage: { links: [{ path: '/etc/l', target: '/etc/x' }] } },
      'ignition.storage.links',
      'storage.links is not supported by the MCO',
    ],
    [
      'disks',
      { storage: { disks: [{ device: '/dev/sdb' }] } },
      'ignition.storage.disks',
      'storage.disks cannot change on a running node',
    ],
    [
      'raid',
      { storage: { raid: [{ name: 'md0' }] } },
      'ignition.storage.raid',
      'storage.raid cannot change on a running node',
    ],
    [
      'filesystems',
      { storage: { filesystems: [{ device: '/dev/sdb1' }] } },
      'ignition.storage.filesystems',
      'storage.filesystems cannot change on a running node',
    ],
    [
      'luks',
      { storage: { luks: [{ name: 'root' }] } },
      'ignition.storage.luks',
      'storage.luks cannot change on a running node',
    ],
    [
      'appends',
      { storage: { files: [{ path: '/etc/a', append: [{ source: 'data:,x' }] }] } },
      'ignition.storage.files[0].append',
      'file append is not supported: the MCO cannot apply it idempotently',
    ],
    [
      'groups',
      { passwd: { groups: [{ name: 'ops' }] } },
      'ignition.passwd.groups',
      'passwd.groups is not supported by the MCO',
    ],
    [
      'other users',
      { passwd: { users: [{ name: 'ops', sshAuthorizedKeys: ['k'] }] } },
      'ignition.passwd.users[0].name',
      'user "ops" is not supported: the MCO only manages the core user',
    ],
    [
      'core user fields',
      { passwd: { users: [{ name: 'core', shell: '/bin/zsh' }] } },
      'ignition.passwd.users[0]',
      'the MCO only manages sshAuthorizedKeys and passwordHash of the core user, not shell',
    ],
    [
      'Ignition kernel arguments',
      { kernelArguments: { shouldExist: ['nosmt'] } },
      'ignition.kernelArguments',
      "Ignition's kernelArguments are not applied by the MCO",
    ],
    [
      'config merge',
      { ignition: { config: { merge: [{ source: 'data:,{}' }] } } },
      'ignition.ignition.config.merge',
      'Ignition merge is not supported: the MCO merges MachineConfigs itself',
    ],
  ])('rejects %s', (_name, ignition, field, message) => {
    expect(rejected(ignition, field).message).toBe(message);
  });

  it('rejects a remote source', () => {
    expect(
      rejected(
        { storage: { files: [{ path: '/etc/a', contents: { source: 'https://example.com/a' } }] } },
        'ignition.storage.files[0].contents.source',
      ),
    ).toMatchObject({
      message: 'source "https://example.com/a" is not a data: URL; the MCO never fetches remote content',
      fix: 'inline the content as a data: URL, or use the friendly files prop',
    });
  });

  it('rejects a data: URL the MCO cannot decode', () => {
    expect(
      rejected(
        { storage: { files: [{ path: '/etc/a', contents: { source: 'data:,50%' } }] } },
        'ignition.storage.files[0].contents.source',
      ).message,
    ).toMatch(/not a decodable data: URL/);
  });

  it('rejects a remote certificate authority', () => {
    expect(
      rejected(
        { ignition: { security: { tls: { certificateAuthorities: [{ source: 'https://ca' }] } } } },
        'ignition.ignition.security.tls.certificateAuthorities[0].source',
      ).message,
    ).toMatch(/not a data: URL/);
  });

  it('holds raw files and units to the friendly rules', () => {
    const s = raw({
      storage: { files: [{ path: '/etc//a', mode: 644 }] },
      systemd: { units: [{ name: 'a', dropins: [{ name: 'b' }] }] },
    });
    expect(s.errors.map((i) => [i.field, i.message])).toEqual([
      ['ignition.storage.files[0].path', 'path "/etc//a" must not contain "//"'],
      [
        'ignition.storage.files[0].mode',
        'Ignition modes are decimal integers from 0 to 511 (0o777); the MCO rejects larger modes',
      ],
      [
        'ignition.systemd.units[0].name',
        expect.stringMatching(/^unit name "a" needs a systemd unit type suffix/),
      ],
      [
        'ignition.systemd.units[0].dropins[0].name',
        'drop-in name "b" must end in ".conf" (systemd ignores other files)',
      ],
    ]);
  });

  it('rejects an Ignition version other than the one rendered', () => {
    expect(rejected({ ignition: { version: '3.2.0' } }, 'ignition.ignition.version')).toMatchObject({
      message: 'must be 3.4.0, the version Groundwork renders for this OpenShift minor',
      fix: 'remove ignition.version; Groundwork sets it',
    });
  });

  it('rejects unknown sections', () => {
    expect(rejected({ systemD: {} }, 'ignition').message).toBe('not an Ignition 3.4.0 section: systemD');
  });

  it('rejects values that are not plain JSON', () => {
    expect(
      rejected(
        { storage: { files: [{ path: '/etc/a', when: new Date(0) }] } },
        'ignition.storage.files[0].when',
      ).message,
    ).toBe('must be plain JSON, not Date');
    expect(
      rejected(
        { storage: { files: [{ path: '/etc/a', mode: Number.NaN }] } },
        'ignition.storage.files[0].mode',
      ).message,
    ).toBe('NaN is not a JSON number');
  });

  it('accepts objects without a prototype and emits plain JSON', () => {
    const files = Object.assign(Object.create(null) as object, {
      path: '/etc/a',
      contents: { source: 'data:,a' },
    });
    const s = raw({ storage: { files: [files] } });
    expect(s.errors).toEqual([]);
    expect(JSON.stringify(ofKind(s.objects, 'MachineConfig')[0]!.spec)).toContain('"path":"/etc/a"');
  });
});
