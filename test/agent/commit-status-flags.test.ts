import { describe, expect, it } from 'vitest';
import { commitStatusOf } from '../../src/agent/commit-status-flags.js';
import { GroundworkError } from '../../src/core/errors.js';

function refusal(flags: Parameters<typeof commitStatusOf>[0]): string {
  try {
    commitStatusOf(flags);
  } catch (err) {
    if (err instanceof GroundworkError && err.code === 'InvalidFlag') return err.toString();
    throw err;
  }
  throw new Error('accepted');
}

describe('commitStatusOf (groundwork agent --commit-status-*)', () => {
  it('is off without a Secret, and takes the flags with one', () => {
    expect(commitStatusOf({})).toBeUndefined();
    expect(
      commitStatusOf({
        commitStatusSecret: 'forge-token',
        commitStatusForge: 'gitea',
        commitStatusApi: 'https://git.example.com/api/v1',
        dashboardUrl: 'https://dash.example.com/',
      }),
    ).toEqual({
      secret: 'forge-token',
      forge: 'gitea',
      apiUrl: 'https://git.example.com/api/v1',
      dashboardUrl: 'https://dash.example.com/',
    });
  });

  it('refuses hostile or useless flags with a clear error that does not quote the URL', () => {
    expect(refusal({ commitStatusSecret: 's', commitStatusForge: 'bitbucket' })).toContain(
      '--commit-status-forge: must be one of github, gitlab, gitea',
    );
    const withCreds = refusal({
      commitStatusSecret: 's',
      commitStatusApi: 'https://u:hunter2@git.example.com/api',
    });
    expect(withCreds).toContain('--commit-status-api: the URL must not hold a user name or password');
    expect(withCreds).not.toContain('hunter2');
    expect(refusal({ commitStatusSecret: 's', dashboardUrl: 'file:///etc/passwd' })).toContain(
      'uses the file: scheme',
    );
    expect(refusal({ dashboardUrl: 'https://dash.example.com' })).toContain(
      '--dashboard-url: has no effect without --commit-status-secret',
    );
  });
});
