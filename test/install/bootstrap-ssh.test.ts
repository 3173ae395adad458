import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { bootstrapObjects } from '../../src/install/bootstrap-objects.js';
import { agentNetworkPolicy, repositoryPort } from '../../src/install/network-policy.js';
import { PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentArgs, bootstrapSpec, flagWithValue, readableSecrets } from '../harness/bootstrap-spec.js';
import { groundwork } from '../harness/cli.js';
import { makeKey } from '../harness/ssh-server.js';

// Bootstrap for an SSH repository (issue 32, item 3): the deploy key and known_hosts go into the
// credentials Secret laid out as Flux's, the agent reads that Secret itself (get on its name only),
// the NetworkPolicy opens the SSH port, and `--print --from DIR` plans without fetching anything.

const root = mkdtempSync(join(tmpdir(), 'gw-bootstrap-ssh-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const key = makeKey(root, 'deploy');
const KNOWN_HOSTS =
  'git.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n';

describe('bootstrapObjects with an SSH deploy key', () => {
  const spec = {
    ...bootstrapSpec({ credentialsSecret: 'groundwork-git-credentials' }),
    repository: { url: 'ssh://deploy@git.example.com:2222/acme/platform.git', ref: { branch: 'main' } },
    credentials: { ssh: { identity: key.privateKey, knownHosts: KNOWN_HOSTS, passphrase: 'pw' } },
  };

  it('puts identity, known_hosts and the passphrase in the Secret, and points the agent at it', () => {
    const secret = bootstrapObjects(spec).find((o) => o.kind === 'Secret') as
      (K8sObject & { stringData: Record<string, string> }) | undefined;
    expect(secret?.stringData).toEqual({
      identity: key.privateKey,
      known_hosts: KNOWN_HOSTS,
      password: 'pw',
    });
    expect(flagWithValue(agentArgs(spec), '--credentials-secret')).toEqual([
      '--credentials-secret',
      'groundwork-git-credentials',
    ]);
    expect(flagWithValue(agentArgs(spec), '--repo')).toEqual([
      '--repo',
      'ssh://deploy@git.example.com:2222/acme/platform.git',
    ]);
    // Not an environment variable: the key is read from the Secret by the agent only.
    const deployment = JSON.stringify(bootstrapObjects(spec).find((o) => o.kind === 'Deployment'));
    expect(deployment).not.toContain('identity');
    expect(readableSecrets(spec.rbac)).toContain('groundwork-git-credentials');
  });

  it('gives an HTTP token agent no --credentials-secret and no get on the Secret', () => {
    const http = { ...bootstrapSpec(), credentials: { token: 't' } };
    expect(agentArgs(http)).not.toContain('--credentials-secret');
    expect(readableSecrets(http.rbac)).not.toContain('groundwork-git-credentials');
  });

  it("opens the SSH port of the git host in the agent's NetworkPolicy", () => {
    expect(repositoryPort('git@github.com:acme/p.git')).toBe(22);
    expect(repositoryPort('ssh://git@h:2222/p.git')).toBe(2222);
    expect(repositoryPort('https://h/p.git')).toBe(443);
    const policy = agentNetworkPolicy({
      namespace: 'groundwork-system',
      name: 'groundwork-agent',
      podLabels: { a: 'b' },
      labels: {},
      egress: {
        apiserver: { addresses: ['10.0.0.1'], ports: [443] },
        git: { addresses: ['192.0.2.7'], port: repositoryPort('git@github.com:acme/p.git') },
        dnsServiceAddresses: [],
        extraCidrs: [],
      },
      ingress: { metricsNamespaces: ['monitoring'] },
      httpPort: 8080,
    }) as K8sObject & {
      spec: { egress: { to: { ipBlock?: { cidr: string } }[]; ports: { port: number }[] }[] };
    };
    const git = policy.spec.egress.find((r) => r.to.some((p) => p.ipBlock?.cidr === '192.0.2.7/32'));
    expect(git?.ports).toEqual([{ protocol: 'TCP', port: 22 }]);
  });
});

describe('bootstrap --print --from DIR with an SSH repository', () => {
  it('plans from the local directory without fetching, and puts the deploy key in the Secret (redacted in the printout)', async () => {
    const dir = join(root, 'platform');
    mkdirSync(join(dir, 'platform'), { recursive: true });
    mkdirSync(join(dir, 'overlays'));
    writeFileSync(
      join(dir, 'groundwork.yaml'),
      'name: sshplat\nentry: platform/main.ts\noverlays: overlays\n',
    );
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'platform', 'main.ts'), PLATFORM_MAIN);
    writeFileSync(
      join(dir, 'overlays', 'test.yaml'),
      JSON.stringify({ namespace: 'team-s', items: { a: '1' } }),
    );
    writeFileSync(join(root, 'known_hosts'), KNOWN_HOSTS);
    // git.invalid never resolves: a fetch would fail, so passing proves nothing was fetched.
    const r = await groundwork(
      [
        'bootstrap',
        '--print',
        '--from',
        dir,
        '--repo',
        'git@git.invalid:acme/platform.git',
        '--overlay',
        'test',
      ],
      {
        env: {
          KUBECONFIG: join(root, 'no-kubeconfig'),
          HOME: root,
          KUBERNETES_SERVICE_HOST: '',
          GROUNDWORK_GIT_SSH_KEY_FILE: key.file,
          GROUNDWORK_GIT_KNOWN_HOSTS_FILE: join(root, 'known_hosts'),
        },
        timeoutMs: 170_000,
      },
    );
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Rendered from ${dir} (--from), not fetched`);
    const objects = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } } | null)
      .filter((o) => o !== null);
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'team-s');
    expect(role).toBeDefined();
    const secret = objects.find((o) => o.kind === 'Secret') as unknown as {
      stringData: Record<string, string>;
    };
    expect(Object.keys(secret.stringData).sort()).toEqual(['identity', 'known_hosts']);
    expect(r.stdout).not.toContain(key.privateKey.split('\n')[1]!.slice(0, 40));
    expect(r.stdout).toContain('git@git.invalid:acme/platform.git');
    expect(r.stdout).toContain('--credentials-secret');
  }, 180_000);
});
