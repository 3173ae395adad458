import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { textDataUrl } from '../../../src/machine-config/data-url.js';
import { decodeFileContents } from '../../../src/machine-config/file-contents.js';
import { buildPreview, previewMarkdown, previewText } from '../../../src/report/preview/index.js';
import { machineConfigDiff } from '../../../src/report/preview/machine-config-diff.js';
import { expectGolden } from '../../harness/golden.js';
import { result } from './helpers.js';

const GOLDEN = fileURLToPath(new URL('../golden/preview-machine-config.md', import.meta.url));

/**
 * The chrony MachineConfig of the OpenShift documentation ("Configuring chrony time service",
 * 99-worker-chrony), with the file source encoded as Butane writes it: percent-encoded `data:,`.
 */
const CHRONY = [
  'pool 0.rhel.pool.ntp.org iburst',
  'driftfile /var/lib/chrony/drift',
  'makestep 1.0 3',
  'rtcsync',
  'logdir /var/log/chrony',
  '',
].join('\n');

interface Spec {
  files?: unknown[];
  units?: unknown[];
  kernelArguments?: string[];
}

function mc(spec: Spec): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name: '99-worker-chrony', labels: { 'machineconfiguration.openshift.io/role': 'worker' } },
    spec: {
      config: {
        ignition: { version: '3.4.0' },
        ...(spec.files ? { storage: { files: spec.files } } : {}),
        ...(spec.units ? { systemd: { units: spec.units } } : {}),
      },
      ...(spec.kernelArguments ? { kernelArguments: spec.kernelArguments } : {}),
    },
  };
}

const file = (path: string, source: string, compression?: string): unknown => ({
  path,
  mode: 420,
  overwrite: true,
  contents: { source, ...(compression !== undefined ? { compression } : {}) },
});
const gzipUrl = (bytes: Uint8Array | string): string => `data:;base64,${gzipSync(bytes).toString('base64')}`;

describe('machineConfigDiff', () => {
  it("shows a file's own lines, decoded, not a data: URL", () => {
    const base = mc({ files: [file('/etc/chrony.conf', textDataUrl(CHRONY))] });
    const head = mc({
      files: [file('/etc/chrony.conf', gzipUrl(`${CHRONY}server 2.rhel.pool.ntp.org iburst\n`), 'gzip')],
    });
    const diff = machineConfigDiff(base, head);
    expect(diff).toContain('--- base:/etc/chrony.conf\n+++ head:/etc/chrony.conf\n');
    expect(diff).toContain('-# mode 0644\n+# mode 0644, gzip\n');
    expect(diff).toContain('+server 2.rhel.pool.ntp.org iburst\n');
    expect(diff).not.toContain('data:');
    expect(diff).not.toContain('%20');
  });

  it('shows systemd units (enabled, contents, dropins) and kernel arguments', () => {
    const base = mc({
      units: [{ name: 'chronyd.service', enabled: false }],
      kernelArguments: ['nosmt'],
    });
    const head = mc({
      units: [
        {
          name: 'chronyd.service',
          enabled: true,
          dropins: [{ name: '10-wait.conf', contents: '[Unit]\nAfter=network-online.target\n' }],
        },
      ],
      kernelArguments: ['nosmt', 'mitigations=auto'],
    });
    const diff = machineConfigDiff(base, head);
    expect(diff).toContain('--- base:unit chronyd.service\n+++ head:unit chronyd.service\n');
    expect(diff).toContain('-# enabled: false\n+# enabled: true\n');
    expect(diff).toContain('--- /dev/null\n+++ head:unit chronyd.service dropin 10-wait.conf\n');
    expect(diff).toContain('+After=network-online.target\n');
    expect(diff).toContain(' nosmt\n+mitigations=auto\n');
  });

  it('is empty when only metadata changes', () => {
    const a = mc({ files: [file('/etc/chrony.conf', textDataUrl(CHRONY))] });
    const b = { ...a, metadata: { ...a.metadata, annotations: { x: 'y' } } };
    expect(machineConfigDiff(a, b)).toBe('');
  });
});

describe('hostile file contents', () => {
  it('a gzip bomb stops at the cap and says so', () => {
    // 64 MiB of zeros gzip to about 64 KiB; only the cap is ever inflated.
    const bomb = gzipUrl(Buffer.alloc(64 * 1024 * 1024));
    expect(decodeFileContents(bomb, { compression: 'gzip' })).toEqual({ kind: 'too-large', limit: 262144 });
    const diff = machineConfigDiff(undefined, mc({ files: [file('/etc/bomb', bomb, 'gzip')] }));
    expect(diff).toContain('+(more than 262144 bytes decoded: not shown)\n');
    expect(diff.length).toBeLessThan(500);
  });

  it('binary contents: size and sha256, never the bytes', () => {
    const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x1b, 0x5b, 0x32, 0x4a, 0x00, 0xff]);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const diff = machineConfigDiff(
      undefined,
      mc({ files: [file('/usr/local/bin/x', `data:;base64,${bytes.toString('base64')}`)] }),
    );
    expect(diff).toContain(`+(binary, 12 bytes, sha256 ${sha})\n`);
    expect(diff).not.toContain('\u001b');
    expect(diff).not.toContain('ELF');
  });

  it('invalid base64, bad gzip, an unknown compression and a remote source are named, not shown', () => {
    const c = (source: unknown, compression?: unknown) => decodeFileContents(source, { compression });
    expect(c('data:;base64,not*base64')).toMatchObject({ kind: 'invalid' });
    expect(c(textDataUrl('plain'), 'gzip')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('gzip'),
    });
    expect(c(textDataUrl('plain'), 'zstd')).toMatchObject({ kind: 'invalid' });
    expect(c('https://evil.example/x')).toEqual({ kind: 'invalid', reason: 'not a data: URL' });
    const diff = machineConfigDiff(undefined, mc({ files: [file('/etc/x', 'data:;base64,c2VjcmV0*')] }));
    expect(diff).toContain('+(cannot be decoded: not a valid data: URL (bad base64 or % escape))\n');
    expect(diff).not.toContain('c2VjcmV0');
  });
});

describe('preview of a MachineConfig change', () => {
  const base = [result('prod', [mc({ files: [file('/etc/chrony.conf', textDataUrl(CHRONY))] })])];
  const head = [
    result('prod', [
      mc({ files: [file('/etc/chrony.conf', textDataUrl(`${CHRONY}server 2.rhel.pool.ntp.org iburst\n`))] }),
    ]),
  ];

  it('Markdown: the decoded file diff first, the object diff folded below (golden)', () => {
    const p = buildPreview({ base, head });
    const change = p.overlays[0]!.changes[0]!;
    expect(change.nodeDiff).toContain('+server 2.rhel.pool.ntp.org iburst\n');
    // The object diff is still there: today's one-line change of the URL-encoded source.
    expect(change.diff).toContain('source: data:,pool%200.rhel');
    expectGolden(GOLDEN, previewMarkdown(p));
  });

  it('text: the decoded diff, then the object diff', () => {
    const text = previewText(buildPreview({ base, head }));
    expect(text).toMatch(
      /on the node \(files decoded\):\n(.*\n)*\s+\+server 2\.rhel\.pool\.ntp\.org iburst\n\s+object diff:\n/,
    );
  });
});
