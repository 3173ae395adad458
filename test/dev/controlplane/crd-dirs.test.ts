import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCrdDirs, defaultCrdDirs } from '../../../src/core/crd-dirs.js';
import { GroundworkError } from '../../../src/core/errors.js';
import { BIN } from '../../harness/cli.js';

const bin = BIN;

describe('CRD directories', () => {
  it('ships the OLM and OpenShift CRDs with the package, beside its own', () => {
    const [platform, own] = defaultCrdDirs();
    expect(() => checkCrdDirs(defaultCrdDirs())).not.toThrow();
    expect(readdirSync(platform!).sort()).toEqual([
      'config.openshift.io_clusteroperators.yaml',
      'config.openshift.io_clusterversions.yaml',
      'machineconfiguration.openshift.io_machineconfigpools.yaml',
      'machineconfiguration.openshift.io_machineconfigs.yaml',
      'operators.coreos.com_catalogsources.yaml',
      'operators.coreos.com_clusterserviceversions.yaml',
      'operators.coreos.com_installplans.yaml',
      'operators.coreos.com_operatorconditions.yaml',
      'operators.coreos.com_operatorgroups.yaml',
      'operators.coreos.com_subscriptions.yaml',
    ]);
    expect(readdirSync(own!)).toContain('groundwork.io_platformsyncs.yaml');
  });

  it('names a missing directory (and a file given as one) instead of dropping it', () => {
    const missing = join(tmpdir(), 'gw-no-such-crds');
    const file = join(mkdtempSync(join(tmpdir(), 'gw-crd-file-')), 'crd.yaml');
    writeFileSync(file, '');
    for (const [dir, message] of [
      [missing, 'CRD directory not found'],
      [file, 'not a directory'],
    ] as const) {
      const err = (() => {
        try {
          checkCrdDirs([...defaultCrdDirs(), dir]);
        } catch (e) {
          return e as GroundworkError;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(GroundworkError);
      expect(err?.code).toBe('CrdDirectoryMissing');
      expect(err?.subject).toBe(dir);
      expect(err?.message).toContain(message);
    }
  });

  it('makes `cluster up --crds <missing>` exit 2 naming it, before starting anything', async () => {
    const missing = join(tmpdir(), 'gw-no-such-crds');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [bin, 'cluster', 'up', '--name', 'gw-missing-crds', '--crds', missing],
        { timeout: 60_000 },
        (_e, _o, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${missing}: CRD directory not found`);
  });
});
