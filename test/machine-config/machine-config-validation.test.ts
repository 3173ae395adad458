import { describe, expect, it } from 'vitest';
import {
  MachineConfig,
  type MachineConfigFile,
  type MachineConfigProps,
} from '../../src/machine-config/index.js';
import { issueAt, ofKind, synth } from './helpers.js';

/** One MachineConfig `p/mc` on worker with `props`; returns what synth saw. */
function one(props: Partial<MachineConfigProps> & Record<string, unknown>, version = '4.16') {
  return synth(
    (p) => new MachineConfig(p, 'mc', { pool: 'worker', ...props } as MachineConfigProps),
    version,
  );
}

/** Asserts one error at `p/mc` `field`, nothing emitted, and returns the issue. */
function rejected(
  props: Partial<MachineConfigProps> & Record<string, unknown>,
  field: string,
  version?: string,
) {
  const s = one(props, version);
  expect(ofKind(s.objects, 'MachineConfig')).toEqual([]);
  const issue = issueAt(s.errors, 'p/mc', field);
  expect(issue.severity).toBe('error');
  return issue;
}

const file = (extra: Record<string, unknown>) => ({ files: [{ path: '/etc/x', contents: 'x', ...extra }] });

describe('MachineConfig validation: files', () => {
  it.each([
    ['etc/motd', 'path "etc/motd" must be absolute', 'write /etc/motd'],
    ['/etc/../motd', 'path "/etc/../motd" must be clean: no "." or ".." segments', 'write /motd'],
    ['/etc/./motd', 'path "/etc/./motd" must be clean: no "." or ".." segments', 'write /etc/motd'],
    ['/etc//motd', 'path "/etc//motd" must not contain "//"', 'write /etc/motd'],
    [
      '/etc/motd.d/',
      'path "/etc/motd.d/" must not end with "/" (that names a directory)',
      'write /etc/motd.d',
    ],
    [
      '/usr/bin/tool',
      '/usr/bin/tool is under /usr, which is read-only on RHCOS: the daemon cannot write it',
      'write under /etc, or /usr/local (which is /var/usrlocal)',
    ],
    [
      '/run/machine-config-daemon-force',
      '/run/machine-config-daemon-force cannot be created through a MachineConfig (the MCO refuses it)',
      'remove this file',
    ],
  ])('rejects path %s', (path, message, fix) => {
    expect(rejected(file({ path }), 'files[0].path')).toMatchObject({ message, fix });
  });

  it('rejects a number mode that is not a mode (644 decimal) and suggests octal', () => {
    expect(rejected(file({ mode: 644 }), 'files[0].mode')).toMatchObject({
      message: 'mode 644 is larger than 0o777 (511): numbers are taken as the mode value itself',
      fix: "did you mean octal 644? write '0644' or 0o644",
    });
  });

  it.each([
    ['4755', 'mode 4755 has setuid, setgid or sticky bits, which the MCO rejects (at most 0777)'],
    ['rw-r--r--', 'mode "rw-r--r--" is not an octal number'],
    [1.5, 'mode 1.5 must be a whole number from 0 to 0o777'],
  ])('rejects mode %s', (mode, message) => {
    expect(rejected(file({ mode }), 'files[0].mode').message).toBe(message);
  });

  it.each([
    ['0644', 420],
    ['644', 420],
    ['0o600', 384],
    [0o755, 493],
    [0, 0],
  ])('accepts mode %s as %i', (mode, decimal) => {
    const { objects, errors } = one(file({ mode }));
    expect(errors).toEqual([]);
    expect(
      (ofKind(objects, 'MachineConfig')[0]!.spec as { config: { storage: { files: { mode: number }[] } } })
        .config.storage.files[0]!.mode,
    ).toBe(decimal);
  });

  it('rejects a remote source on the file', () => {
    const remote = { path: '/etc/x', source: 'https://example.com/x' } as unknown as MachineConfigFile;
    expect(rejected({ files: [remote] }, 'files[0]')).toMatchObject({
      message:
        'a remote "source" is not supported: the MCO writes files only from data: URLs, which Groundwork builds from contents',
      fix: 'inline the file: contents as text, { base64 } or bytes',
    });
  });

  it('rejects a remote source as contents', () => {
    expect(
      rejected(file({ contents: { source: 'https://example.com/x' } }), 'files[0].contents.source').message,
    ).toMatch(/remote "source" is not supported/);
  });

  it('rejects contents that are not text, base64 or bytes', () => {
    expect(rejected(file({ contents: 42 }), 'files[0].contents').message).toBe(
      'contents must be a string, { text }, { base64 } or bytes (Uint8Array or Buffer)',
    );
  });

  it('rejects base64 that Go would not decode', () => {
    expect(rejected(file({ contents: { base64: 'aGVsbG8\n' } }), 'files[0].contents.base64').message).toBe(
      'is not standard padded base64',
    );
  });
});

describe('MachineConfig validation: units', () => {
  it.each(['chronyd', 'chronyd.conf', '.service', 'a/b.service'])('rejects unit name %s', (name) => {
    expect(rejected({ units: [{ name }] }, 'units[0].name').message).toMatch(/^unit name /);
  });

  it('names the accepted suffixes', () => {
    expect(rejected({ units: [{ name: 'chronyd' }] }, 'units[0].name')).toMatchObject({
      message:
        'unit name "chronyd" needs a systemd unit type suffix (.service, .socket, .device, .mount, .automount, .swap, .target, .path, .timer, .slice, .scope)',
      fix: 'e.g. chronyd.service',
    });
  });

  it.each(['var-lib.mount', 'x.socket', 'backup.timer', 'getty@.service', 'system-x.slice'])(
    'accepts unit name %s',
    (name) => {
      expect(one({ units: [{ name, enabled: true }] }).errors).toEqual([]);
    },
  );

  it('rejects a drop-in not ending in .conf', () => {
    expect(
      rejected(
        { units: [{ name: 'kubelet.service', dropins: [{ name: '10-env', contents: '' }] }] },
        'units[0].dropins[0].name',
      ),
    ).toMatchObject({
      message: 'drop-in name "10-env" must end in ".conf" (systemd ignores other files)',
      fix: 'e.g. 10-env.conf',
    });
  });

  it('rejects a drop-in declared twice in a unit', () => {
    const dropin = { name: '10-env.conf', contents: '' };
    expect(
      rejected(
        { units: [{ name: 'kubelet.service', dropins: [dropin, dropin] }] },
        'units[0].dropins[1].name',
      ).message,
    ).toBe('drop-in 10-env.conf is declared twice in kubelet.service');
  });

  it('rejects a unit both masked and enabled', () => {
    expect(
      rejected({ units: [{ name: 'x.service', mask: true, enabled: true }] }, 'units[0].mask').message,
    ).toBe('a masked unit cannot be enabled');
  });
});

describe('MachineConfig validation: spec fields', () => {
  it('checks extensions against the OpenShift minor', () => {
    expect(rejected({ extensions: ['sysstat'] }, 'extensions[0]')).toMatchObject({
      message: 'extension "sysstat" is not available on OpenShift 4.16',
      fix: 'use one of: ipsec, kerberos, kernel-devel, sandboxed-containers, usbguard, wasm',
    });
    expect(one({ extensions: ['sysstat'] }, '4.18').errors).toEqual([]);
  });

  it('refuses 64k-pages before 4.15', () => {
    expect(rejected({ kernelType: '64k-pages' }, 'kernelType', '4.14').message).toBe(
      'kernelType 64k-pages needs OpenShift 4.15 or later',
    );
  });

  it('refuses kernel-devel with a realtime kernel', () => {
    expect(
      rejected({ kernelType: 'realtime', extensions: ['usbguard', 'kernel-devel'] }, 'extensions[1]').message,
    ).toBe('the kernel-devel extension only works with the default kernel, not realtime');
  });

  it('refuses an empty kernel argument but lets the daemon split whitespace', () => {
    expect(rejected({ kernelArguments: ['nosmt', ' '] }, 'kernelArguments[1]').message).toBe(
      'a kernel argument must not be empty',
    );
    expect(one({ kernelArguments: ['nosmt mitigations=off'] }).errors).toEqual([]);
  });

  it('warns that fips only works at install time, and still emits', () => {
    const s = one({ fips: true });
    expect(ofKind(s.objects, 'MachineConfig')).toHaveLength(1);
    expect(issueAt(s.warnings, 'p/mc', 'fips').message).toMatch(/^FIPS can only be set at install time/);
  });

  it('warns about a MachineConfig that changes nothing', () => {
    expect(issueAt(one({}).warnings, 'p/mc', '').message).toBe('this MachineConfig changes nothing');
  });

  it('rejects OpenShift versions before 4.8', () => {
    expect(rejected({ kernelArguments: ['nosmt'] }, '', '4.7').message).toBe(
      'MachineConfigs need OpenShift 4.8 or later; the platform targets 4.7',
    );
  });

  it('rejects a config larger than the MCO limit', () => {
    expect(rejected(file({ contents: new Uint8Array(1_200_000) }), '').message).toMatch(
      /^the MachineConfig is \d+ bytes, over the MCO's limit of 1572864 \(1\.5 MiB\)/,
    );
  });
});

describe('MachineConfig validation: names and pools', () => {
  it('rejects a default name the installer already uses', () => {
    const s = synth((p) => new MachineConfig(p, 'ssh', { pool: 'worker', kernelArguments: ['nosmt'] }));
    expect(issueAt(s.errors, 'p/ssh', 'name')).toMatchObject({
      message:
        'default name "99-worker-ssh" (99-<role>-<construct id>): name "99-worker-ssh" is reserved for MachineConfigs the MCO or the installer generate',
      fix: 'set name, or use another construct id',
    });
  });

  it.each(['rendered-worker-1', '00-worker', '01-worker-kubelet', '98-worker-generated-kubelet'])(
    'rejects the reserved name %s',
    (name) => {
      expect(rejected({ name, kernelArguments: ['nosmt'] }, 'name').fix).toBe(
        'choose another construct id or set name',
      );
    },
  );

  it('rejects a name that is not a DNS subdomain', () => {
    expect(rejected({ name: '99_Worker', kernelArguments: ['nosmt'] }, 'name').message).toBe(
      'a MachineConfig name must be lowercase letters, digits, "-" and "."',
    );
  });

  it('rejects a role that is not a DNS label', () => {
    expect(rejected({ pool: 'Infra Nodes', kernelArguments: ['nosmt'] }, 'pool').message).toBe(
      'a role must be a DNS label: lowercase letters, digits and "-"',
    );
  });

  it('rejects unknown props', () => {
    expect(rejected({ kernelArgs: ['nosmt'] }, '').message).toMatch(/kernelArgs/);
  });
});

describe('MachineConfig validation: unit file syntax', () => {
  it.each([
    ['[Unit\nDescription=x\n', 'unit file line 1: section header "[Unit" has no closing "]"'],
    ['[Unit] Description=x\n', 'unit file line 1: text after the section header "[Unit]"'],
    [
      '[Service]\nExecStart /bin/true\n',
      'unit file line 2: "ExecStart /bin/true" is not an option (Name=value), a [Section] or a comment',
    ],
    [
      `[Service]\nExecStart=${'x'.repeat(2100)}\n`,
      'unit file line 2 is 2110 bytes; systemd lines must be shorter than 2048',
    ],
  ])('rejects %j', (contents, message) => {
    expect(rejected({ units: [{ name: 'x.service', contents }] }, 'units[0].contents').message).toBe(message);
  });

  it('checks drop-ins and raw units too', () => {
    expect(
      rejected(
        { units: [{ name: 'x.service', dropins: [{ name: 'a.conf', contents: '[Service]\nnope\n' }] }] },
        'units[0].dropins[0].contents',
      ).message,
    ).toMatch(/^unit file line 2: "nope" is not an option/);
    expect(
      rejected(
        { ignition: { systemd: { units: [{ name: 'x.service', contents: '[Service\n' }] } } },
        'ignition.systemd.units[0].contents',
      ).message,
    ).toMatch(/has no closing "]"/);
  });

  it('accepts comments, continuations and blank lines', () => {
    const contents =
      '# header\n[Unit]\nDescription=a \\\n  long description\n\n; note\n[Service]\r\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n';
    expect(one({ units: [{ name: 'x.service', enabled: true, contents }] }).issues).toEqual([]);
  });

  it('warns when an enabled unit has no [Install] section', () => {
    const s = one({
      units: [{ name: 'x.service', enabled: true, contents: '[Service]\nExecStart=/bin/true\n' }],
    });
    expect(issueAt(s.warnings, 'p/mc', 'units[0].enabled').message).toBe(
      'x.service has no [Install] section, so systemd cannot enable it',
    );
    expect(ofKind(s.objects, 'MachineConfig')).toHaveLength(1);
  });
});
