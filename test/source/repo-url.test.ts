import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { checkRepoUrl } from '../../src/source/repo-url.js';
import { BIN } from '../harness/cli.js';

const bin = BIN;

describe('checkRepoUrl', () => {
  it.each([
    'https://git.example.com/platform.git',
    'http://127.0.0.1:8080/p.git',
    'https://tok@host/p.git',
    'ssh://git@host/platform.git',
    'ssh://git@host:2222/~/platform.git',
    'git@github.com:acme/platform.git',
    'deploy@[::1]:srv/platform.git',
  ])('accepts %s', (url) => expect(() => checkRepoUrl(url)).not.toThrow());

  it.each([
    ['file:///srv/git/platform.git', 'the file:// scheme is not supported'],
    ['ftp://host/platform.git', 'the ftp:// scheme is not supported'],
    ['/srv/git/platform', 'a local path is not a repository URL'],
    ['./platform', 'a local path is not a repository URL'],
  ])('refuses %s with the supported schemes', (url, message) => {
    const err = (() => {
      try {
        checkRepoUrl(url);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('UnsupportedRepoUrl');
    expect((err as GroundworkError).message).toContain(message);
    expect((err as GroundworkError).fix).toContain('https://, http:// (git smart HTTP), ssh://');
  });

  it('tells a local path or file:// to `groundwork git serve`', () => {
    expect(() => checkRepoUrl('file:///srv/git/platform.git')).toThrow(GroundworkError);
    for (const url of ['file:///srv/git/p.git', '/srv/git/p', '../p']) {
      try {
        checkRepoUrl(url);
      } catch (e) {
        expect((e as GroundworkError).fix).toContain('groundwork git serve');
      }
    }
  });

  it('never shows credentials of a refused URL', () => {
    expect(() => checkRepoUrl('ftp://user:hunter2@host/p.git')).toThrow(/ftp:\/\/host\/p\.git/);
    expect(() => checkRepoUrl('ftp://user:hunter2@host/p.git')).not.toThrow(/hunter2/);
  });

  it('makes `groundwork agent --repo file://…` exit 2 at start instead of retrying forever', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [bin, 'agent', '--repo', 'file:///srv/git/platform.git', '--overlay', 'dev', '--http-port', '0'],
        { env: { ...process.env, KUBECONFIG: '/nonexistent' }, timeout: 60_000 },
        (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the file:// scheme is not supported');
    expect(result.stderr).toContain('https://, http://');
    expect(result.stderr).toContain('groundwork git serve');
  }, 90_000);
});
