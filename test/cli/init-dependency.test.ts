import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundworkDependency } from '../../src/cli/init-dependency.js';
import { hasCode } from '../../src/core/errors.js';

const cwd = mkdtempSync(join(tmpdir(), 'gw-dep-'));
writeFileSync(join(cwd, 'groundwork-gitops-0.1.0.tgz'), 'not really a tarball');
writeFileSync(join(cwd, 'a $(touch pwned) b.tgz'), 'x');
writeFileSync(join(cwd, 'notes.txt'), 'x');
mkdirSync(join(cwd, 'checkout'));
const installed = { root: '/opt/gw', version: '0.1.0', gitCheckout: false };
const checkout = { root: '/src/groundwork', version: '0.1.0', gitCheckout: true };
const dep = (spec: string | undefined, self = installed) => groundworkDependency({ spec, cwd, self });

describe('groundworkDependency (init --groundwork-version)', () => {
  it.each([
    // Not published: the running Groundwork's own directory, installed or a checkout.
    [undefined, installed, { kind: 'directory', spec: 'file:/opt/gw' }],
    [undefined, checkout, { kind: 'directory', spec: 'file:/src/groundwork' }],
    ['0.2.0', installed, { kind: 'registry', spec: '0.2.0' }],
    ['^0.2.0', installed, { kind: 'registry', spec: '^0.2.0' }],
    ['>=0.1.0 <0.3.0', installed, { kind: 'registry', spec: '>=0.1.0 <0.3.0' }],
    ['git+https://git.example.com/groundwork.git#v0.1.0', installed, { kind: 'git' }],
    ['git+ssh://git@github.com/acme/groundwork.git', installed, { kind: 'git' }],
    ['github:acme/groundwork#main', installed, { kind: 'git' }],
    ['checkout', installed, { kind: 'directory', spec: `file:${join(cwd, 'checkout')}` }],
  ] as const)('%s (%o) → %o', (spec, self, expected) => {
    expect(dep(spec, self)).toMatchObject(expected);
  });

  it('copies a tarball into vendor/ and names it relative to the repository, so a move or a clone keeps it', () => {
    expect(dep('groundwork-gitops-0.1.0.tgz')).toEqual({
      kind: 'tarball',
      from: join(cwd, 'groundwork-gitops-0.1.0.tgz'),
      vendored: 'vendor/groundwork-gitops-0.1.0.tgz',
      spec: 'file:vendor/groundwork-gitops-0.1.0.tgz',
    });
    // An absolute path outside the new repository is fine: only its bytes are copied.
    expect(dep(join(cwd, 'groundwork-gitops-0.1.0.tgz')).spec).toBe(
      'file:vendor/groundwork-gitops-0.1.0.tgz',
    );
  });

  it('names a vendored tarball with a harmless file name whatever the source file is called', () => {
    expect(dep('a $(touch pwned) b.tgz').spec).toBe('file:vendor/a---touch-pwned--b.tgz');
  });

  it.each([
    '1.0.0; rm -rf ~',
    '$(touch /tmp/gw-pwned)',
    '`id`',
    'latest && curl example.com',
    'git+https://example.com/g.git\nrm -rf /',
    'missing.tgz',
    'notes.txt',
    '',
  ])('refuses %j with InvalidGroundworkVersion, echoing nothing of it', (spec) => {
    let caught: unknown;
    try {
      dep(spec);
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, 'InvalidGroundworkVersion')).toBe(true);
    if (spec) expect((caught as Error).message).not.toContain(spec);
  });
});
