import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

/** A platform whose construct `platform/probe` runs `attempt` while it is built. */
function probing(imports: string, attempt: string): string {
  return `${imports}
import { Construct } from 'constructs';
import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
class Probe extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const data = { value: String(${attempt}) };
    new ApiObject(this, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe', namespace: 'default' }, data });
  }
}
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new Probe(platform, 'probe');
  },
});
`;
}

describe("platform code runs under Node's permission model", () => {
  it.each([
    [
      'reads the service-account token',
      "import { readFileSync } from 'node:fs';",
      "readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/token', 'utf8')",
      'read /var/run/secrets/kubernetes.io/serviceaccount/token',
    ],
    [
      'reads a file outside the checkout',
      "import { readFileSync } from 'node:fs';",
      "readFileSync('/etc/hostname', 'utf8')",
      'read /etc/hostname',
    ],
    ['writes a file', "import { writeFileSync } from 'node:fs';", "writeFileSync('loot.txt', 'x')", 'write '],
    [
      'starts a child process',
      "import { execSync } from 'node:child_process';",
      "execSync('id')",
      'start a child process',
    ],
    [
      'starts a worker thread',
      "import { Worker } from 'node:worker_threads';",
      "new Worker('1', { eval: true })",
      'start a worker thread',
    ],
  ])(
    'synth fails when platform code %s, naming the construct and the line',
    async (_what, imports, attempt, action) => {
      const dir = platformDir(probing(imports, attempt));
      const r = await groundwork(['synth', '--dir', dir]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('construct platform/probe: platform code is not permitted to ' + action);
      expect(r.stderr).toMatch(/\(at platform\/main\.ts:7\)/);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a sentence, not a stack trace
    },
  );

  it('names the platform file and line when the attempt is at import time', async () => {
    const dir = platformDir(
      `import { readFileSync } from 'node:fs';\nconst stolen = readFileSync('/etc/hostname', 'utf8');\n${probing('', 'stolen')}`,
    );
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('platform/main.ts:2: platform code is not permitted to read /etc/hostname');
  });

  it('still reads files inside the checkout, relative to the platform code', async () => {
    const dir = platformDir(
      probing(
        "import { readFileSync } from 'node:fs';",
        "readFileSync(new URL('../files/motd', import.meta.url), 'utf8').trim()",
      ),
      { files: { 'files/motd': 'hello from the repository\n' } },
    );
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('value: hello from the repository');
  });

  const including = (
    url: string,
  ) => `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new Include(platform, 'upstream', { url: ${JSON.stringify(url)} });
  },
});
`;
  const MANIFESTS = {
    'manifests/upstream.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: included\n  namespace: default\ndata:\n  answer: "no"\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: included\n',
  };

  it.each([
    ['a path relative to the repository', 'manifests/upstream.yaml'],
    ['a file: URL', 'file://DIR/manifests/upstream.yaml'],
  ])(
    "includes a YAML file of the checkout with cdk8s' Include (%s), though cdk8s reads it with a child process",
    async (_what, url) => {
      const dir = platformDir(including('PLACEHOLDER'), { files: MANIFESTS });
      const main = join(dir, 'platform', 'main.ts');
      writeFileSync(main, including(url.replace('DIR', dir)));
      const r = await groundwork(['synth', '--dir', dir]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('name: included');
      expect(r.stdout).toMatch(/answer: "no"/);
    },
  );

  it('refuses an Include of an http(s) URL, naming the construct: synth reads no network', async () => {
    const dir = platformDir(including('https://example.invalid/deploy.yaml'));
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Include of https://example.invalid/deploy.yaml: synth reads no URLs');
    expect(r.stderr).toMatch(/platform\/upstream|platform\/main\.ts/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an Include of a file outside the checkout as any other read', async () => {
    const dir = platformDir(including('/etc/hostname'));
    const r = await groundwork(['synth', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('platform code is not permitted to read /etc/hostname');
  });
});
