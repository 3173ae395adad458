import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { checkRepoUrl } from '../../src/source/repo-url.js';

const bin = fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));

describe('checkRepoUrl', () => {
  it.each(['https://git.example.com/platform.git', 'http://127.0.0.1:8080/p.git', 'https://tok@host/p.git'])(
    'accepts %s',
    (url) => expect(() => checkRepoUrl(url)).not.toThrow(),
  );

  it.each([
    ['file:///srv/git/platform.git', 'the file:// scheme is not supported'],
    ['ssh://git@host/platform.git', 'the ssh:// scheme is not supported'],
    ['git@github.com:acme/platform.git', 'not a URL with a scheme'],
    ['/srv/git/platform', 'not a URL with a scheme'],
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
    expect((err as GroundworkError).fix).toContain('https://, http://');
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
  });
});
