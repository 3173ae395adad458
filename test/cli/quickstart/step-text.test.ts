import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { registerCommands } from '../../../src/cli/commands/index.js';
import { quickstartWords } from '../../../src/cli/quickstart/step-text.js';

// The quick start run from an installed package: the user's directory is not Groundwork's
// repository and has no src/, so its words must name what ships with the package.
const INSTALLED = '/usr/lib/node_modules/groundwork-gitops';

describe('quickstart words', () => {
  it('name the example platform and the simulators shipped with Groundwork, not "this repository" or src/', () => {
    const words = quickstartWords(INSTALLED);
    const text = Object.values(words).join('\n');
    expect(text).not.toMatch(/this repo|src\//);
    expect(words.intro).toBe(
      `Groundwork quick start: the example platform shipped with Groundwork (${INSTALLED}/platform), reconciled by the agent from git.`,
    );
    expect(words.simulators).toContain('the simulators shipped with Groundwork (docs/simulators.md)');
    expect(words.git).toContain(`${INSTALLED}/platform`);
  });

  it('quickstart --help says the same', async () => {
    const program = new Command('groundwork');
    await registerCommands(program, () => {}, 'quickstart');
    const quickstart = program.commands.find((c) => c.name() === 'quickstart')!;
    const help = quickstart.helpInformation({ error: false }).replace(/\s+/g, ' ');
    expect(help).not.toMatch(/this repo/);
    expect(help).toContain('the example platform shipped with Groundwork');
  });
});
