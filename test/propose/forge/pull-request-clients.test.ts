import { afterEach, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import { FORGE_CHOICES } from '../../../src/cli/propose-publish-flags.js';
import { pullRequestForge } from '../../../src/propose/forge/open-forge.js';
import { FORGES } from '../../../src/report/notifications/forge.js';
import { startPullRequestApi, type PullRequestApi } from '../../harness/pull-request-api.js';

// The GitHub and GitLab pull-request clients against a loopback fake that checks every request
// against the forges' documented REST schemas (test/harness/pull-request-api.ts cites the pages).

const TOKEN = 'ghp_client_test_token_never_printed';
const CASES = [
  { forge: 'github', repoUrl: 'https://github.com/acme/platform.git', path: 'acme/platform' },
  { forge: 'gitlab', repoUrl: 'https://gitlab.com/acme/infra/platform.git', path: 'acme/infra/platform' },
] as const;

let api: PullRequestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const noWait = () => Promise.resolve();

it("propose's --forge choices are the forges commit statuses know", () => {
  expect([...FORGE_CHOICES]).toEqual([...FORGES]);
});

describe.each(CASES)('$forge pull requests', ({ forge, repoUrl, path }) => {
  it('finds none, opens one, finds it, updates it and closes it with a comment: every request as documented', async () => {
    api = await startPullRequestApi(forge, { token: TOKEN, path });
    const { client } = pullRequestForge({
      repoUrl,
      apiUrl: api.apiUrl,
      token: TOKEN,
      policy: { allowLoopback: true },
    });
    const branch = 'groundwork/propose/cert-manager';
    expect(await client.find(branch)).toBeUndefined();
    const opened = await client.open({
      branch,
      base: 'main',
      title: 'cert-manager 1.14.4 → 1.14.5',
      body: 'preview',
    });
    expect(opened).toMatchObject({ number: 1, title: 'cert-manager 1.14.4 → 1.14.5', body: 'preview' });
    expect(await client.find(branch)).toMatchObject({ number: 1, url: opened.url });
    expect(await client.find('groundwork/propose/other')).toBeUndefined();
    await client.update(1, { title: 'cert-manager 1.14.4 → 1.14.6', body: 'newer preview' });
    expect(api.pulls[0]).toMatchObject({
      title: 'cert-manager 1.14.4 → 1.14.6',
      body: 'newer preview',
      state: 'open',
    });
    await client.close(1, 'the pin moved');
    expect(api.pulls[0]).toMatchObject({
      state: 'closed',
      comments: ['the pin moved'],
      head: branch,
      base: 'main',
    });
    expect(await client.find(branch)).toBeUndefined();
    expect(api.requests.map((r) => r.problems)).toEqual(api.requests.map(() => []));
    expect(api.requests.map((r) => `${r.method} ${r.route}`)).toEqual([
      'GET list',
      'POST create',
      'GET list',
      'GET list',
      `${forge === 'github' ? 'PATCH' : 'PUT'} update`,
      'POST comment',
      `${forge === 'github' ? 'PATCH' : 'PUT'} update`,
      'GET list',
    ]);
  });

  it('retries 503 and 429 with backoff, then gives up on a 401 at once without the token in the error', async () => {
    api = await startPullRequestApi(forge, {
      token: TOKEN,
      path,
      answer: (_req, n, res) => {
        if (n === 1 || n === 2) {
          res.writeHead(n === 1 ? 503 : 429, { 'retry-after': '0' }).end();
          return true;
        }
        return false;
      },
    });
    const waits: number[] = [];
    const sleep = (ms: number) => (waits.push(ms), noWait());
    const { client } = pullRequestForge({
      repoUrl,
      apiUrl: api.apiUrl,
      token: TOKEN,
      policy: { allowLoopback: true },
      sleep,
    });
    expect(await client.find('groundwork/propose/x')).toBeUndefined();
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(0);
    const wrong = pullRequestForge({
      repoUrl,
      apiUrl: api.apiUrl,
      token: `${TOKEN}-wrong`,
      policy: { allowLoopback: true },
      sleep,
    });
    const before = api.requests.length;
    const err = (await wrong.client.find('groundwork/propose/x').catch((e: unknown) => e)) as GroundworkError;
    expect(err).toBeInstanceOf(GroundworkError);
    expect(err.code).toBe('ForgeRequestFailed');
    expect(err.message).toContain('HTTP 401');
    expect(err.message).not.toContain(TOKEN);
    expect(api.requests.length - before).toBe(1);
  });
});
