import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { startAgent } from '../../src/agent/start.js';
import type { K8sObject } from '../../src/core/object.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision } from '../harness/agent-run.js';
import { seriousViolations } from '../harness/axe.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { writeUiDocSection } from '../harness/ui-docs.js';
import { pageText as text } from '../harness/page-text.js';
import { launchChromium } from '../harness/browser.js';

/**
 * The agent's own dashboard (`--dashboard`) against the real control plane and a real agent that
 * applied a real git revision: the object page's desired object and diff and the Drift page's git
 * values come from the agent's memory; a Secret's values (the one git holds and one planted out of
 * band) never reach a page.
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-desired' });
const PLANTED_GIT = 'planted-git-value-c81f2a';
const PLANTED_LIVE = 'planted-live-value-4e09bd';
const HOSTILE = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** `npm run docs:ui`: this file's screenshot goes into docs/ui.md as its own section. */
const SHOTS = process.env.GROUNDWORK_UI_SCREENSHOTS === '1';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

const kubeconfigToken = z.object({
  users: z.array(z.object({ user: z.object({ token: z.string() }) })).min(1),
});

describe("the agent's dashboard shows git's side", () => {
  it("after an out-of-band edit: the object page's diff and the Drift row carry git's and the live value; Secret values never appear", async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`d${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const sha = await repo.publish(
      { namespace: ns, items: { a: '1', b: HOSTILE }, secret: PLANTED_GIT },
      {},
      'first',
    );
    const logs = memoryLogger();
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        mode: 'detect-only',
        log: logs.log,
        debounceMs: 50,
        http: { host: '127.0.0.1', port: 0 },
        dashboard: true,
      }),
    );
    cleanups.push(() => agent.stop());
    await appliedRevision(cluster, sha, 'first revision applied');
    const token = kubeconfigToken.parse(parse(readFileSync(cluster.kubeconfig, 'utf8'))).users[0]!.user.token;
    const seen: string[] = [];
    const get = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${agent.port}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const body = await res.text();
      seen.push(body);
      return body;
    };
    const cmPage = `/objects/${encodeURIComponent(`${ns}_a__ConfigMap`)}`;
    const secretPage = `/objects/${encodeURIComponent(`${ns}_creds__Secret`)}`;

    // Before any edit: the desired object is there, and matches.
    const clean = await eventually(
      async () => {
        const t = text(await get(cmPage));
        return t.includes('The fields git sets match') ? t : undefined;
      },
      15_000,
      'the object page compares with git',
    );
    expect(clean).toContain(`The fields git sets match git at main@sha1:${sha}`);
    expect(clean).toContain('Desired object');
    const hostilePage = await get(`/objects/${encodeURIComponent(`${ns}_b__ConfigMap`)}`);
    expect(hostilePage).not.toContain('<img src=x');
    expect(hostilePage).not.toContain('<script>window');
    expect(text(hostilePage)).toContain(HOSTILE);

    // Out of band: a ConfigMap value and the Secret's value, as kubectl edit writes them.
    const cm = await cluster.client.request<K8sObject>('GET', `/api/v1/namespaces/${ns}/configmaps/a`);
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...cm, data: { value: 'edited' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const secret = await cluster.client.request<K8sObject>('GET', `/api/v1/namespaces/${ns}/secrets/creds`);
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/secrets/creds`, {
      body: { ...secret, data: { token: b64(PLANTED_LIVE) } },
      query: { fieldManager: 'kubectl-edit' },
    });

    const rowOf = (markup: string, object: string) =>
      markup.match(new RegExp(`<tr data-drift="${object.replace(/\//g, '\\/')}">[\\s\\S]*?</tr>`))?.[0];
    const drift = await eventually(
      async () => {
        const page = await get('/drift');
        return rowOf(page, `ConfigMap/${ns}/a`) && rowOf(page, `Secret/${ns}/creds`) ? page : undefined;
      },
      15_000,
      'both drift rows',
    );
    expect(text(rowOf(drift, `ConfigMap/${ns}/a`)!)).toContain('/data/value "1" "edited" kubectl-edit');
    const secretRow = text(rowOf(drift, `Secret/${ns}/creds`)!);
    const tags = secretRow.match(/<redacted hmac:[0-9a-f]{8}>/g) ?? [];
    expect(tags).toHaveLength(2);
    expect(tags[0]).not.toBe(tags[1]);
    expect(text(drift)).toContain(`Git's values are those of main@sha1:${sha}`);

    const edited = await get(cmPage);
    expect(edited).toContain('<tr data-field="/data/value">');
    expect(text(edited)).toContain(`1 field(s) differ from git at main@sha1:${sha}`);
    expect(text(edited)).toContain('/data/value "1" "edited" kubectl-edit');
    const secretDetail = await get(secretPage);
    expect(secretDetail).toContain('<tr data-field="/data/token">');

    for (const path of ['/', '/objects', '/history']) await get(path);

    // In a real browser: the diff table and the Drift page's new column are accessible, nothing runs.
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    for (const path of [cmPage, secretPage, '/drift']) {
      await page.goto(`http://127.0.0.1:${agent.port}${path}`);
      seen.push(await page.content());
      expect(await seriousViolations(page), path).toEqual([]);
    }
    if (SHOTS) {
      await page.goto(`http://127.0.0.1:${agent.port}${cmPage}`);
      mkdirSync(`${ROOT}/docs/ui`, { recursive: true });
      await page.screenshot({ path: `${ROOT}/docs/ui/object-diff.png`, fullPage: true });
      writeUiDocSection(
        ROOT,
        'Diff with git',
        "Diff with git: the agent's object page after kubectl edit, git's value beside the live one and who wrote it, then the desired and the live object",
        'ui/object-diff.png',
      );
    }
    await page.goto(`http://127.0.0.1:${agent.port}/objects/${encodeURIComponent(`${ns}_b__ConfigMap`)}`);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    const leaked = [PLANTED_GIT, PLANTED_LIVE, b64(PLANTED_GIT), b64(PLANTED_LIVE)].filter((v) =>
      seen.some((page) => page.includes(v)),
    );
    expect(leaked).toEqual([]);
    expect(logs.text()).not.toContain(PLANTED_GIT);
  });
});
