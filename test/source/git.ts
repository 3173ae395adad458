import { execFileSync } from 'node:child_process';

/** Runs real `git` in `cwd` with a fixed identity and clock, ignoring the user's and the system's config. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    [
      '-c',
      'user.name=Groundwork Test',
      '-c',
      'user.email=test@groundwork.invalid',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'tag.gpgsign=false',
      '-c',
      'init.defaultBranch=main',
      '-c',
      'core.autocrlf=false',
      ...args,
    ],
    {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z',
        GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z',
      },
    },
  ).trim();
}
