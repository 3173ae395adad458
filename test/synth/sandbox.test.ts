import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';

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
});
