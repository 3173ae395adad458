import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformNameOf } from '../../src/cli/actions/init.js';
import { groundwork } from '../harness/cli.js';

const run = (args: string[], cwd: string) => groundwork(args, { cwd });

describe('groundwork init', () => {
  it('scaffolds a repository that synthesizes every overlay', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'gw-init-'));
    const init = await run(['init', 'team-platform'], parent);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Created platform repository "team-platform"');
    const dir = join(parent, 'team-platform');
    for (const f of [
      'groundwork.yaml',
      'platform/main.ts',
      'platform/values.ts',
      'overlays/dev.yaml',
      'overlays/prod.yaml',
      'package.json',
      'tsconfig.json',
      '.gitignore',
      '.github/workflows/preview.yml',
      '.github/workflows/propose.yml',
      'README.md',
    ])
      expect(init.stdout).toContain(f);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      type: string;
      devDependencies: Record<string, string>;
    };
    expect(pkg).toMatchObject({ name: 'team-platform', type: 'module' });
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['groundwork-gitops', 'typescript']);
    expect(readFileSync(join(dir, 'groundwork.yaml'), 'utf8')).toContain('name: team-platform');

    const synth = await run(['synth', '--all-overlays', '--format', 'json', '--out', 'out'], dir);
    expect(synth.stderr).toBe('');
    expect(synth.code).toBe(0);
    const configOf = (overlay: string) =>
      JSON.parse(
        readFileSync(
          join(dir, 'out', overlay, '03-resources', 'configmap_platform-config_platform-info.json'),
          'utf8',
        ),
      ) as {
        data: Record<string, string>;
      };
    expect(configOf('dev').data.environment).toBe('dev');
    expect(configOf('prod').data.environment).toBe('prod');
  });

  it('refuses to overwrite files, writing nothing, unless --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-init-'));
    writeFileSync(join(dir, 'groundwork.yaml'), 'name: mine\n');
    const refused = await run(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('1 file(s) exist: groundwork.yaml');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'groundwork.yaml'), 'utf8')).toBe('name: mine\n');
    const forced = await run(['init', '--force', '--name', 'ours'], dir);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'groundwork.yaml'), 'utf8')).toContain('name: ours');
  });

  it('names the platform after its directory', () => {
    expect(platformNameOf('/srv/My Platform')).toBe('my-platform');
    expect(platformNameOf('/srv/team_infra.git')).toBe('team-infra-git');
  });
});
