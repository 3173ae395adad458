import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { parseRepoUrl, repoEndpoint } from '../../src/source/repo-url.js';
import {
  knownHostsName,
  looksLikeSsh,
  parseSshUrl,
  uploadPackCommand,
} from '../../src/source/ssh/ssh-url.js';

describe('parseSshUrl', () => {
  it.each([
    [
      'ssh://git@github.com/acme/platform.git',
      { user: 'git', host: 'github.com', port: 22, path: '/acme/platform.git' },
    ],
    [
      'ssh://github.com/acme/platform.git',
      { user: 'git', host: 'github.com', port: 22, path: '/acme/platform.git' },
    ],
    [
      'ssh://deploy@git.example:2222/srv/p.git',
      { user: 'deploy', host: 'git.example', port: 2222, path: '/srv/p.git' },
    ],
    ['ssh://git@host/~/p.git', { user: 'git', host: 'host', port: 22, path: '~/p.git' }],
    ['ssh://git@[2001:db8::1]:2222/p.git', { user: 'git', host: '2001:db8::1', port: 2222, path: '/p.git' }],
    [
      'git@github.com:acme/platform.git',
      { user: 'git', host: 'github.com', port: 22, path: 'acme/platform.git' },
    ],
    [
      'gitlab.example:group/sub/p.git',
      { user: 'git', host: 'gitlab.example', port: 22, path: 'group/sub/p.git' },
    ],
    [
      'forgejo@10.0.0.7:/srv/git/p.git',
      { user: 'forgejo', host: '10.0.0.7', port: 22, path: '/srv/git/p.git' },
    ],
    ['git@[::1]:p.git', { user: 'git', host: '::1', port: 22, path: 'p.git' }],
  ])('reads %s', (url, want) => {
    expect(parseSshUrl(url)).toEqual({ kind: 'ssh', url, ...want });
  });

  it('tells SSH shapes from others', () => {
    expect(looksLikeSsh('git@github.com:a/b.git')).toBe(true);
    expect(looksLikeSsh('SSH://host/p')).toBe(true);
    expect(looksLikeSsh('https://host/p')).toBe(false);
    expect(looksLikeSsh('C:\\repos\\p')).toBe(false);
    expect(looksLikeSsh('./dir:with-colon')).toBe(false);
  });

  it('quotes the path for the remote shell as git does', () => {
    expect(uploadPackCommand('acme/p.git')).toBe("git-upload-pack 'acme/p.git'");
    expect(uploadPackCommand("it's!")).toBe(`git-upload-pack 'it'\\''s'\\!''`);
  });

  it('names hosts as known_hosts does', () => {
    expect(knownHostsName('github.com', 22)).toBe('github.com');
    expect(knownHostsName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });

  it('gives the endpoint of each kind of URL (for the NetworkPolicy)', () => {
    expect(repoEndpoint('git@github.com:a/b.git')).toEqual({ host: 'github.com', port: 22 });
    expect(repoEndpoint('ssh://git@h:2222/a')).toEqual({ host: 'h', port: 2222 });
    expect(repoEndpoint('https://h/a')).toEqual({ host: 'h', port: 443 });
    expect(repoEndpoint('http://[::1]:8080/a')).toEqual({ host: '::1', port: 8080 });
  });

  it('reads every URL kind through parseRepoUrl', () => {
    expect(parseRepoUrl('https://h/a.git')).toEqual({ kind: 'http', url: 'https://h/a.git' });
    expect(parseRepoUrl('git@h:a.git').kind).toBe('ssh');
    expect(() => parseRepoUrl('ftp://h/a')).toThrow(GroundworkError);
  });
});
