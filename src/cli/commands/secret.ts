import type { Command } from 'commander';
import type { SecretEncryptFlags } from '../actions/secret.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork secret encrypt FILE --age age1…`: writes a SOPS file (age) that `SopsSecret`, the
 * agent and the real sops read. Declarations only; the action loads when it runs.
 */
export const registerSecret: CommandModule = (program: Command) => {
  program
    .command('secret')
    .description('SOPS-encrypted files for SopsSecret')
    .command('encrypt <file>')
    .description('encrypt a YAML or JSON file with SOPS for age recipients (stdout, or --in-place)')
    .requiredOption('--age <recipients>', 'age recipients (age1…), comma-separated')
    .option(
      '--encrypted-regex <regex>',
      "encrypt only keys matching it, e.g. '^(data|stringData)$' for a Secret manifest",
    )
    .option('--in-place', 'replace the file with its encrypted form')
    .action(async (file: string, flags: SecretEncryptFlags) =>
      (await import('../actions/secret.js')).runSecretEncrypt(file, flags),
    );
};
