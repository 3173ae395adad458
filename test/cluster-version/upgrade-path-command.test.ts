import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerUpgradePath } from '../../src/cli/commands/upgrade-path.js';
import { fixturePath } from '../harness/fixtures.js';

// The command module on its own program (the lead registers it in src/cli/commands/index.ts).
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  let code = 0;
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    const program = new Command('groundwork').exitOverride();
    registerUpgradePath(program, (c) => {
      code = c;
    });
    await program.parseAsync(['node', 'groundwork', 'upgrade-path', ...args]);
  } finally {
    write.mockRestore();
  }
  return { code, out: chunks.join('') };
}

const graph = (file: string) => fixturePath(`update-graphs/${file}`);

describe('groundwork upgrade-path', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints the path and exits 0', async () => {
    const { code, out } = await run(
      '--graph',
      graph('stable-4.8.json'),
      '--from',
      '4.7.0',
      '--to',
      '4.8.54',
      '--channel',
      'stable-4.8',
    );
    expect(code).toBe(0);
    expect(out).toBe(
      'Update 4.7.0 -> 4.8.54 in 2 steps (channel stable-4.8):\n  1. 4.7.0 -> 4.7.60  patch\n  2. 4.7.60 -> 4.8.54  minor\n',
    );
  });

  it('accepts risks, repeatedly, and prints JSON', async () => {
    const { code, out } = await run(
      '--graph',
      graph('stable-4.8.json'),
      '--from',
      '4.7.0',
      '--to',
      '4.7.4',
      '--accept-risk',
      'Other',
      '--accept-risk',
      'VSphereNodeNameChanges',
      '--format',
      'json',
    );
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      ok: true,
      steps: [{ from: '4.7.0', to: '4.7.4', conditional: ['VSphereNodeNameChanges'] }],
    });
  });

  it('prints the reason and exits 2 when there is no path', async () => {
    const { code, out } = await run(
      '--graph',
      graph('stable-4.8.json'),
      '--from',
      '4.7.0',
      '--to',
      '4.7.4',
      '--format',
      'markdown',
    );
    expect(code).toBe(2);
    expect(out).toMatch(/^### No update path 4\.7\.0 → 4\.7\.4\n\n\*\*RiskNotAccepted\*\*/);
  });

  it('plans from a ClusterVersion dump, defaulting --from to status.desired', async () => {
    const { code, out } = await run(
      '--graph',
      fixturePath('cluster-state/4.14.1-paused-worker-pool/cv.yaml'),
      '--to',
      '4.14.11',
    );
    expect(code).toBe(0);
    expect(out).toBe('Update 4.14.1 -> 4.14.11 in 1 step:\n  1. 4.14.1 -> 4.14.11  patch\n');
  });

  it('rejects an invalid graph file with an error naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upgrade-path-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"nodes": [], "edges": [[0, 1]]}');
    await expect(run('--graph', file, '--from', '4.7.0', '--to', '4.8.54')).rejects.toThrowError(
      `${file}: 2 problem(s): edges[0]: node index 0 out of range (0 nodes); edges[0]: node index 1 out of range (0 nodes)`,
    );
  });

  it('validates --output (and its alias --format)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(
      run('--graph', graph('stable-4.8.json'), '--from', '4.7.0', '--to', '4.8.54', '--format', 'xml'),
    ).rejects.toThrow(/--format <format>' argument 'xml' is invalid/);
    await expect(
      run('--graph', graph('stable-4.8.json'), '--from', '4.7.0', '--to', '4.8.54', '-o', 'xml'),
    ).rejects.toThrow(/--output <format>' argument 'xml' is invalid/);
    stderr.mockRestore();
  });
});
