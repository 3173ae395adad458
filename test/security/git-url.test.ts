import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { fetchRevision } from '../../src/source/fetch-revision.js';
import { parseRepoUrl } from '../../src/source/repo-url.js';
import { uploadPackCommand } from '../../src/source/ssh/ssh-url.js';
import { groundwork } from '../harness/cli.js';

// Hostile repository URLs (issue 32, item 3: the new SSH input path). The agent's --repo, bootstrap's
// and the fleet's come from an operator, but the same URL reaches DNS, a TCP connection and a remote
// shell, and ssh(1) and git have read such URLs as options (CVE-2017-1000117) and as commands
// (ext::). Each is refused before any connection, with nothing run and no credential echoed.

const dir = mkdtempSync(join(tmpdir(), 'gw-git-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const marker = join(dir, 'pwned');

const HOSTILE: readonly [string, string][] = [
  [`ssh://-oProxyCommand=touch${marker}/x`, 'is not a DNS name'],
  [`ssh://-oProxyCommand=touch%20${marker}/x`, 'is not a DNS name'],
  [`-oProxyCommand=touch${marker}:x`, 'starts with "-"'],
  ['-oProxyCommand=touch:x', 'starts with "-"'],
  [`git@-oProxyCommand=touch${marker}:x`, 'not a URL with a scheme'],
  ['git@-oProxyCommand=touch:x', 'is not a DNS name'],
  [`ssh://-oProxyCommand=x@host/p`, 'is not a login name'],
  ['git@host:-u/tmp/evil', 'the path starts with "-"'],
  ['git@host:p.git\n--upload-pack=touch /tmp/x', 'control character'],
  ['ssh://git@host/p.git\r\nHost *', 'control character'],
  ['https://host/p.git\nX-Injected: 1', 'control character'],
  [`ext::sh -c touch% ${marker}`, 'holds a space'],
  [`ext::touch${marker}`, 'transport::address'],
  ['fd::3', 'transport::address'],
  [`file://${dir}`, 'file:// scheme is not supported'],
  ['/etc', 'local path'],
  ['../platform', 'local path'],
  [`git@host:p';touch${marker};'`, 'outside letters'],
  ['git@host:$(touch${IFS}/tmp/x)', 'outside letters'],
  ['git@host:`id`', 'outside letters'],
  ['git@host:a;id', 'outside letters'],
  ['ssh://deploy:hunter2@host/p.git', 'holds a password'],
  ['ssh://git@host:0/p', 'is not 1 to 65535'],
  ['ssh://git@host:99999/p', 'is not 1 to 65535'],
  ['ssh://git@host/', 'names no repository path'],
  [`ssh://git@host/${'a'.repeat(10_000)}`, 'longer than 2048'],
  [`https://host/${'a'.repeat(10_000)}`, 'longer than 2048'],
];

describe('hostile repository URLs', () => {
  it.each(HOSTILE)('refuses %j', async (url, why) => {
    const err = (() => {
      try {
        parseRepoUrl(url);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('UnsupportedRepoUrl');
    expect((err as GroundworkError).message).toContain(why);
    // Bounded, one line, no password.
    expect(String(err).length).toBeLessThan(800);
    expect((err as GroundworkError).subject).not.toMatch(/[\n\r]/);
    expect(String(err)).not.toContain('hunter2');
    // The fetch refuses it the same way, before any connection or command.
    await expect(
      fetchRevision({ url, ref: { branch: 'main' }, cacheDir: join(dir, 'cache'), timeoutMs: 5000 }),
    ).rejects.toMatchObject({ code: 'UnsupportedRepoUrl' });
    expect(existsSync(marker)).toBe(false);
  });

  it('makes `groundwork agent --repo ssh://-oProxyCommand=…` exit 2 with nothing run', async () => {
    const r = await groundwork(
      ['agent', '--repo', `ssh://-oProxyCommand=touch${marker}/x`, '--overlay', 'dev', '--http-port', '0'],
      { env: { KUBECONFIG: join(dir, 'none') }, timeoutMs: 60_000 },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a DNS name');
    expect(existsSync(marker)).toBe(false);
  }, 90_000);

  it('quotes every accepted path so that the remote shell reads it back as one word (property, real /bin/sh)', () => {
    const alphabet = fc.constantFrom(...'abz09._~/@+=,%-\'!$;`\\ "*?&|<>(){}[]#\n'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, minLength: 1, maxLength: 24 }), (raw) => {
        let path: string;
        try {
          const parsed = parseRepoUrl(`ssh://git@host/${raw}`);
          path = (parsed as { path: string }).path;
        } catch {
          return; // refused: nothing reaches a shell
        }
        const command = uploadPackCommand(path).replace(/^git-upload-pack /, "printf '%s' ");
        expect(execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8' })).toBe(path);
      }),
      { numRuns: 300 },
    );
  });
});
