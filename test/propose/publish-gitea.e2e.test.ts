// Issue 37 with real parts: `publishProposals` against a real Gitea on loopback (the run's shared
// one), pushing over smart-HTTP with the token, the preview rendered by the `preview` command's own
// path (previewRevisions, isolated renderers). A proposal is opened, left alone when nothing
// changed, updated in place for a newer version, then closed when the pin moves by other means.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { previewRevisions } from '../../src/cli/actions/preview.js';
import { pullRequestForge } from '../../src/propose/forge/open-forge.js';
import type { Proposal } from '../../src/propose/proposal.js';
import { publishProposals, type PublishOptions } from '../../src/propose/publish.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { eventually } from '../harness/cluster.js';
import { sharedGitea, type Gitea } from '../harness/gitea.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { TOOL_BUILD_TIMEOUT_MS } from '../harness/tools.js';

const BRANCH = 'groundwork/propose/podinfo';
const main = (version: string) =>
  configMapPlatform(`const version = '${version}'; // pinned by the platform team`, {
    build: `new ApiObject(platform, 'pin', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'podinfo-version', namespace: 'default' }, data: { version } });`,
  });

const pullSchema = z.looseObject({
  number: z.number(),
  title: z.string(),
  body: z.string(),
  state: z.string(),
  head: z.looseObject({ ref: z.string(), sha: z.string() }),
});

let gitea: Gitea;
let root: string;
let work: GitRepo;
let remote: Awaited<ReturnType<Gitea['createRepo']>>;

beforeAll(async () => {
  gitea = await sharedGitea();
  const name = `propose-${Date.now().toString(36)}`;
  remote = await gitea.createRepo(name);
  root = mkdtempSync(join(tmpdir(), 'gw-propose-gitea-'));
  work = createGitRepo({ root, name });
  work.writeFiles({
    'groundwork.yaml': [
      `name: ${name}`,
      'entry: platform/main.ts',
      'overlays: overlays',
      'defaultOverlay: dev',
      'environments:',
      '  - name: dev',
      '    overlays: [dev]',
      '    ref: main',
      '',
    ].join('\n'),
    'package.json': '{ "type": "module" }\n',
    'overlays/dev.yaml': '{}\n',
    'platform/main.ts': main('1.0.0'),
  });
  work.commit('platform');
  await work.push({ remote: remote.pushUrl });
  // Gitea marks a repository created empty as filled by a hook after the push; until then its
  // pull-request API answers 404.
  await eventually(
    async () => {
      const res = await fetch(`${gitea.apiUrl}/repos/${remote.owner}/${remote.name}`, {
        headers: { Authorization: `token ${gitea.token}` },
      });
      return res.ok && z.looseObject({ empty: z.boolean() }).parse(await res.json()).empty === false
        ? true
        : undefined;
    },
    30_000,
    'gitea to see the pushed repository',
  );
}, TOOL_BUILD_TIMEOUT_MS);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Gitea's own view, through its API with the admin token. */
async function giteaApi(path: string): Promise<unknown> {
  const res = await fetch(`${gitea.apiUrl}/repos/${remote.owner}/${remote.name}${path}`, {
    headers: { Authorization: `token ${gitea.token}`, Accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`gitea ${path}: HTTP ${res.status}`);
  return res.json();
}
const pulls = async (state: string) => z.array(pullSchema).parse(await giteaApi(`/pulls?state=${state}`));
const branchFile = (ref: string) =>
  fetch(`${gitea.url}/${remote.owner}/${remote.name}/raw/branch/${ref}/platform/main.ts`, {
    headers: { Authorization: `token ${gitea.token}` },
  }).then((r) => (r.ok ? r.text() : `HTTP ${r.status}`));

const proposal = (from: string, to: string, notes: string[] = []): Proposal => ({
  group: 'podinfo',
  kind: 'chart',
  title: `podinfo ${from} → ${to}`,
  from,
  to,
  edits: [{ path: 'platform/main.ts', before: main(from), after: main(to) }],
  notes,
  environment: 'dev',
});

function options(): PublishOptions {
  const { client } = pullRequestForge({
    repoUrl: remote.cloneUrl,
    forge: 'gitea',
    token: gitea.token,
    policy: { allowLoopback: true },
  });
  return {
    forge: client,
    git: { url: remote.cloneUrl, auth: { token: gitea.token } },
    baseRef: 'main',
    preview: ({ repoDir, base, head }) => previewRevisions({ repoDir, base, head, overlay: { all: true } }),
  };
}

describe('propose on a real Gitea', () => {
  it('opens a pull request with the preview, leaves it alone when nothing changed, updates it in place for a newer version, and closes it when the pin moves by other means', async () => {
    // 1. Opened: the branch holds the edit, the description is the preview with the notes.
    const first = await publishProposals(
      { proposals: [proposal('1.0.0', '1.0.1', ['podinfo 1.0.1 drops the v1 API'])], refused: [] },
      options(),
    );
    expect(first, JSON.stringify(first)).toMatchObject([
      { group: 'podinfo', branch: BRANCH, outcome: 'opened' },
    ]);
    const [opened] = await pulls('open');
    expect(opened).toMatchObject({ title: 'podinfo 1.0.0 → 1.0.1', head: { ref: BRANCH } });
    expect(opened!.body).toMatch(/^<!-- groundwork-propose group=podinfo digest=[0-9a-f]{64} -->/);
    expect(opened!.body).toContain('## Groundwork preview');
    expect(opened!.body).toContain('podinfo-version');
    expect(opened!.body).toContain('podinfo 1.0.1 drops the v1 API');
    expect(await branchFile(BRANCH)).toContain("const version = '1.0.1'");

    // 2. The same proposal again: nothing pushed, nothing edited.
    const again = await publishProposals(
      { proposals: [proposal('1.0.0', '1.0.1', ['podinfo 1.0.1 drops the v1 API'])], refused: [] },
      options(),
    );
    expect(again, JSON.stringify(again)).toMatchObject([{ outcome: 'unchanged' }]);
    expect((await pulls('open'))[0]!.head.sha).toBe(opened!.head.sha);

    // 3. A newer version of the same group: the same pull request, a new commit, a new title.
    const newer = await publishProposals({ proposals: [proposal('1.0.0', '1.0.2')], refused: [] }, options());
    expect(newer, JSON.stringify(newer)).toMatchObject([{ outcome: 'updated' }]);
    const [updated] = await pulls('open');
    expect(updated).toMatchObject({ number: opened!.number, title: 'podinfo 1.0.0 → 1.0.2' });
    expect(updated!.head.sha).not.toBe(opened!.head.sha);
    expect(updated!.body).not.toContain('drops the v1 API');
    expect(await branchFile(BRANCH)).toContain("const version = '1.0.2'");

    // 4. The team bumps the pin by hand to 1.0.3; the next run proposes nothing for it: closed, with why.
    work.writeFiles({ 'platform/main.ts': main('1.0.3') });
    work.commit('podinfo 1.0.3 by hand');
    await work.push({ remote: remote.pushUrl });
    const closed = await publishProposals({ proposals: [], refused: [] }, options());
    expect(closed, JSON.stringify(closed)).toMatchObject([{ group: 'podinfo', outcome: 'closed' }]);
    expect(closed[0]!.detail).toContain('moved by other means');
    expect(await pulls('open')).toEqual([]);
    const comments = z
      .array(z.looseObject({ body: z.string() }))
      .parse(await giteaApi(`/issues/${opened!.number}/comments`));
    expect(comments.map((c) => c.body).join('\n')).toContain('the pin moved by other means');
    expect(await branchFile(BRANCH)).toBe('HTTP 404'); // the branch is gone
    expect(JSON.stringify([first, again, newer, closed])).not.toContain(gitea.token);
  }, 180_000);
});
