// The bench platform (namespaces and ConfigMaps sized by its overlay) as a served git repository,
// shared by the agent and dashboard-idle benches.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../src/cli/run-command.js';
import { startGitServer, type GitServer } from '../src/dev/git-server.js';

/** `namespaces` Namespaces and `objects` ConfigMaps spread over them; `changed` overrides a ConfigMap's value. */
export const PLATFORM = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ namespaces: z.number(), objects: z.number(), changed: z.record(z.string(), z.string()).default({}) }),
  build(scope, v) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    for (let n = 0; n < v.namespaces; n++) new ApiObject(p, 'ns-' + n, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench-' + n } });
    for (let i = 0; i < v.objects; i++) {
      const name = 'cm-' + i;
      new ApiObject(p, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'bench-' + (i % v.namespaces) }, data: { index: String(i), value: v.changed[name] ?? 'initial' } });
    }
  },
});
`;

/**
 * Commits `PLATFORM` with overlay `bench` ({ namespaces, objects }) in `<root>/work`, clones it bare
 * to `<root>/served/platform.git` and serves `<root>/served` over git smart-HTTP
 * (`server.url('platform.git')`). `publish(changed, message)` commits new ConfigMap values, pushes
 * them to the served repository and returns the commit's sha. The caller stops the server.
 */
export async function serveBenchPlatform(
  root: string,
  size: { namespaces: number; objects: number },
): Promise<{
  server: GitServer;
  publish(changed: Record<string, string>, message: string): Promise<string>;
}> {
  const work = join(root, 'work');
  const env = {
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'b@b',
  };
  const git = (...args: string[]) =>
    runCommand('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: work, env });
  const overlay = (changed: Record<string, string>) =>
    writeFile(join(work, 'overlays', 'bench.yaml'), JSON.stringify({ ...size, changed }));
  await mkdir(join(work, 'platform'), { recursive: true });
  await mkdir(join(work, 'overlays'), { recursive: true });
  await writeFile(join(work, 'groundwork.yaml'), 'name: bench\ndefaultOverlay: bench\n');
  await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(work, 'platform', 'main.ts'), PLATFORM);
  await overlay({});
  await git('init', '-q', '--initial-branch=main');
  await git('add', '.');
  await git('commit', '-qm', 'bench platform');
  await runCommand('git', ['clone', '-q', '--bare', work, join(root, 'served', 'platform.git')], {
    cwd: root,
    env,
  });
  const server = await startGitServer({ root: join(root, 'served') });
  return {
    server,
    publish: async (changed, message) => {
      await overlay(changed);
      await git('commit', '-qam', message);
      await git('push', '-q', join(root, 'served', 'platform.git'), 'main');
      return (await git('rev-parse', 'HEAD')).trim();
    },
  };
}
