import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { startGitServer, type GitServer } from '../../src/dev/git-server.js';
import { createGitRepo, type GitRepo } from './git-repo.js';

/** A platform repository served over real git smart-HTTP, for agent tests. */
export interface PlatformRepo {
  repo: GitRepo;
  server: GitServer;
  url: string;
  /** Commits and pushes new overlay values (and optionally other files); returns the commit id. */
  publish(values: PlatformValues, extra?: Record<string, string | null>, message?: string): Promise<string>;
  stop(): Promise<void>;
}

export interface PlatformValues {
  namespace: string;
  items: Record<string, string>;
  /** A Secret's value (to prove secret values never leak). */
  secret?: string;
  /** An operator approval value, to make validation fail on purpose (e.g. 'manual'). */
  approval?: string;
}

/**
 * The platform module every agent test repository holds: ConfigMaps from overlay values, an
 * optional Secret, and an optional PlatformOperator whose approval can be made invalid.
 */
export const PLATFORM_MAIN = `import { ApiObject, Platform, PlatformOperator, definePlatform, z } from 'groundwork-gitops';

export default definePlatform({
  values: z.object({
    namespace: z.string(),
    items: z.record(z.string(), z.string()),
    secret: z.string().optional(),
    approval: z.string().optional(),
  }),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    for (const [name, value] of Object.entries(v.items)) {
      new ApiObject(platform, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: v.namespace }, data: { value } });
    }
    if (v.secret) {
      new ApiObject(platform, 'creds', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: v.namespace }, stringData: { token: v.secret } });
    }
    if (v.approval) {
      new PlatformOperator(platform, 'op', { package: 'some-operator', channel: 'stable', namespace: v.namespace, createNamespace: false, approval: v.approval as 'Manual' });
    }
  },
});
`;

export async function platformRepo(name = 'platform'): Promise<PlatformRepo> {
  const root = mkdtempSync(join(tmpdir(), 'gw-agent-repo-'));
  const repo = createGitRepo({ root, name });
  const server = await startGitServer({ root });
  return {
    repo,
    server,
    url: server.url(repo.path),
    async publish(values, extra = {}, message = 'update') {
      repo.writeFiles({
        'groundwork.yaml': `name: ${name}\nentry: platform/main.ts\noverlays: overlays\ndefaultOverlay: test\n`,
        'package.json': '{ "type": "module" }\n',
        'platform/main.ts': PLATFORM_MAIN,
        'overlays/test.yaml': JSON.stringify(values, null, 2),
        ...extra,
      });
      const sha = repo.commit(message);
      await repo.push();
      return sha;
    },
    stop: () => server.stop(),
  };
}

/** A pino logger writing into memory, to search the agent's logs. */
export function memoryLogger(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { log: pino({ level: 'debug' }, stream), text: () => lines.join('') };
}
