import type { Command } from 'commander';
import type { SecretDecryptFlags, SecretEncryptFlags } from '../actions/secret.js';
import type { SecretInitRulesFlags, SecretKeygenFlags } from '../actions/secret-keygen.js';
import type { CommandModule } from './command-module.js';

const RULES_HELP = `
Recipients and rules come from the .sops.yaml found from the file's directory up (its first
creation rule whose path_regex matches the file's path relative to it), as sops reads it; flags
override the rule. The result must make a SopsSecret: every value encrypted text.`;

/** The flags that choose recipients and rules for a new file (sops's names). */
function encryptOptions(cmd: Command): Command {
  return cmd
    .option('--age <recipients>', 'age recipients (age1…), comma-separated: instead of the rule’s keys')
    .option('--encrypted-regex <regex>', 'encrypt only values under keys matching it (Go RE2 syntax)')
    .option('--unencrypted-regex <regex>', 'leave values under keys matching it readable')
    .option('--encrypted-suffix <suffix>', 'encrypt only values under keys ending in it')
    .option('--unencrypted-suffix <suffix>', 'leave values under keys ending in it readable')
    .option('--mac-only-encrypted', 'the MAC covers encrypted values only')
    .option('--config <file>', 'the .sops.yaml to read (default: $SOPS_CONFIG, else found from the file up)');
}

/**
 * `groundwork secret encrypt|decrypt|edit|keygen|init-rules`: SOPS files (age) that `SopsSecret`,
 * the agent and the real sops read, their key and their `.sops.yaml`. Declarations only; the
 * actions load when they run.
 */
export const registerSecret: CommandModule = (program: Command) => {
  const secret = program
    .command('secret')
    .description('SOPS-encrypted files for SopsSecret (age), as sops reads them');
  encryptOptions(
    secret
      .command('encrypt <file>')
      .description('encrypt a YAML or JSON file with SOPS for age recipients (stdout, or --in-place)'),
  )
    .option('--in-place', 'replace the file with its encrypted form (atomically)')
    .addHelpText('after', RULES_HELP)
    .action(async (file: string, flags: SecretEncryptFlags) =>
      (await import('../actions/secret.js')).runSecretEncrypt(file, flags),
    );
  secret
    .command('decrypt <file>')
    .description(
      'print the plaintext of a SOPS file, verified (values and MAC) with SOPS_AGE_KEY_FILE or SOPS_AGE_KEY; never writes a file unless --out',
    )
    .option(
      '--out <file>',
      'write to this new file (0600) instead of stdout; refused beside the encrypted file or in a git work tree',
    )
    .option(
      '--allow-in-repository',
      'let --out write beside the encrypted file or in a git work tree (a path git ignores)',
    )
    .action(async (file: string, flags: SecretDecryptFlags) =>
      (await import('../actions/secret.js')).runSecretDecrypt(file, flags),
    );
  encryptOptions(
    secret
      .command('edit <file>')
      .description(
        'edit a SOPS file as sops edit does: decrypt to a private temporary copy, run $SOPS_EDITOR or $EDITOR (no shell), encrypt again with the same data key (unchanged values keep their ciphertext), replace the file atomically, wipe the copy; a new file uses its .sops.yaml rule or the flags',
      ),
  )
    .addHelpText('after', RULES_HELP)
    .action(async (file: string, flags: SecretEncryptFlags) =>
      (await import('../actions/secret-edit.js')).runSecretEdit(file, flags),
    );
  secret
    .command('keygen')
    .description(
      "make an age identity (age-keygen's format) in a new 0600 file, print its recipient, and say where the private key goes (SOPS_AGE_KEY_FILE, the agent's --decryption-secret)",
    )
    .option(
      '--out <file>',
      'the new key file (default: sops’s own, ~/.config/sops/age/keys.txt or $XDG_CONFIG_HOME/sops/age/keys.txt)',
    )
    .option('--allow-in-repository', 'let --out write inside a git work tree (a path git ignores)')
    .action(async (flags: SecretKeygenFlags) =>
      (await import('../actions/secret-keygen.js')).runSecretKeygen(flags),
    );
  secret
    .command('init-rules')
    .description(
      'write a .sops.yaml whose creation rule encrypts the files under secrets/ for the recipients (never overwrites one)',
    )
    .requiredOption('--age <recipients>', 'age recipients (age1…), comma-separated')
    .option('--dir <dir>', 'where to write .sops.yaml (the repository root)', '.')
    .option('--secrets-dir <dir>', 'the directory of encrypted files, relative to --dir', 'secrets')
    .action(async (flags: SecretInitRulesFlags) =>
      (await import('../actions/secret-keygen.js')).runSecretInitRules(flags),
    );
};
