import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { useCluster } from '../harness/cluster.js';
import { memoryLogger, platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth, syncStatus } from '../harness/agent-run.js';

// A committed symbolic link out of the repository (issue 19 item 2): the overlay the agent follows
// links to a file outside any checkout, holding a planted secret. YAML reads the file as a mapping
// of its lines, and the platform's strict values quote every unknown key: before the symlink check,
// each line went into the Stalled condition and the agent's log.
const SECRET = `gw-planted-${randomBytes(8).toString('hex')}`;
const OUTSIDE = join(mkdtempSync(join(tmpdir(), 'gw-outside-')), 'shadow');
writeFileSync(OUTSIDE, `root:${SECRET}:19000:0:99999:7:::\nadmin:${SECRET}-2:19000:0:99999:7:::\n`);

const cluster = useCluster({ namespacePrefix: 'gw-symlink' });

describe('the agent, given a commit that links its overlay to a file outside the repository', () => {
  it('fails synth naming the link, keeps the previous revision, and shows no line of the file', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`l${ns.slice(-6)}`);
    const logs = memoryLogger();
    const agent = await startAgent(agentOptions(cluster, repo, { log: logs.log, debounceMs: 50 }));
    try {
      const good = await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'good');
      await appliedRevision(cluster, good, 'the good revision applied');

      // The overlay becomes a link to the file outside, committed as a link; values become strict.
      const strict = PLATFORM_MAIN.replace('  }),\n  build(scope, v)', '  }).strict(),\n  build(scope, v)');
      expect(strict).toContain('.strict()');
      repo.repo.writeFiles({ 'platform/main.ts': strict });
      const overlay = join(repo.repo.workDir, 'overlays', 'test.yaml');
      rmSync(overlay);
      symlinkSync(OUTSIDE, overlay);
      repo.repo.commit('link the overlay out');
      await repo.repo.push();
      const stalled = await stalledOnSynth(cluster, 'Stalled on the linking commit');
      expect(stalled.c.message).toContain('overlays/test.yaml: symbolic link leads outside the repository');
      expect(stalled.s?.lastAppliedRevision).toBe(`main@sha1:${good}`);

      const events = JSON.stringify(
        await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`),
      );
      expect(logs.text()).toContain('overlays/test.yaml: symbolic link leads outside the repository');
      for (const text of [JSON.stringify(await syncStatus(cluster)), events, logs.text()])
        expect(text).not.toContain(SECRET);
    } finally {
      await agent.stop();
      await repo.stop();
    }
  });
});
