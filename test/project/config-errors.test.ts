import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { loadProjectConfig } from '../../src/project/config.js';

function repo(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  writeFileSync(join(dir, 'groundwork.yaml'), config);
  return dir;
}
const failure = (dir: string) =>
  loadProjectConfig(dir).then(
    () => undefined,
    (e: unknown) => e as GroundworkError,
  );

describe('groundwork.yaml errors', () => {
  it('quote a name that is not a DNS label, name the file and line once, and give a fix', async () => {
    const err = await failure(repo('entry: platform/main.ts\nname: Platform_Info\n'));
    expect(err).toBeInstanceOf(GroundworkError);
    expect(err).toMatchObject({ code: 'InvalidConfig', subject: 'groundwork.yaml:2' });
    expect(err!.message).toBe(
      'groundwork.yaml:2: name: "Platform_Info" is not a DNS label (lowercase letters, digits, -)',
    );
    expect(err!.fix).toMatch(/^correct groundwork\.yaml/);
  });

  it('give each problem its line when there are several', async () => {
    const err = await failure(repo('name: Bad_Name\noverlays: ../x\n'));
    expect(err).toMatchObject({ subject: 'groundwork.yaml' });
    expect(err!.message).toContain('line 1: name: "Bad_Name" is not a DNS label');
    expect(err!.message).toContain('line 2: overlays: must be a path inside the repository');
  });

  it('quote an environment name that is not a DNS label', async () => {
    const err = await failure(
      repo('name: p\nenvironments:\n  - name: Prod_EU\n    overlays: [prod]\n    ref: main\n'),
    );
    expect(err!.message).toContain('environments[0].name: "Prod_EU" is not a DNS label');
  });
});
