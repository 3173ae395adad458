import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/commands/index.js';

describe('apply --help', () => {
  it('says that --no-wait still waits for CRDs to be Established', async () => {
    const program = new Command('groundwork');
    await registerCommands(program, () => {}, 'apply');
    const apply = program.commands.find((c) => c.name() === 'apply')!;
    const help = apply.helpInformation({ error: false }).replace(/\s+/g, ' ');
    expect(help).toContain(
      '--no-wait do not wait for CSVs, operands and pools between stages (CRDs are still waited for until Established)',
    );
  });
});
