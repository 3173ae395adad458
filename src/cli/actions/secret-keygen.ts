import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { newAgeKeyFile } from '../../secrets/age-key-file.js';
import { isAgeRecipient } from '../../secrets/encrypt-config.js';
import { gitWorkTreeOf, outputRefused, writeNewPrivateFile } from '../../secrets/private-file.js';
import { sopsRulesFile } from '../../secrets/sops-rules-file.js';
import { note } from './secret.js';

export interface SecretKeygenFlags {
  out?: string;
  allowInRepository?: boolean;
}

/**
 * sops's own key file, read when `SOPS_AGE_KEY_FILE` is not set (`age/keysource.go`):
 * `$XDG_CONFIG_HOME/sops/age/keys.txt`, else the OS's configuration directory (Linux
 * `~/.config`, macOS `~/Library/Application Support`).
 */
export function sopsUserKeyFile(env: NodeJS.ProcessEnv): string {
  const config =
    env.XDG_CONFIG_HOME ||
    (process.platform === 'darwin'
      ? join(homedir(), 'Library', 'Application Support')
      : join(homedir(), '.config'));
  return join(config, 'sops', 'age', 'keys.txt');
}

/**
 * `groundwork secret keygen [--out FILE]`: a new age identity in `age-keygen`'s format, written
 * 0600 to a new file (never over one, never through a link; by default sops's own key file, see
 * `sopsUserKeyFile`, refused inside a git work tree unless `--allow-in-repository`). Prints the
 * recipient on stdout and, on stderr, where the private key goes: `SOPS_AGE_KEY_FILE` for the CLI,
 * the agent's decryption Secret for the cluster. The private key is never printed.
 */
export async function runSecretKeygen(flags: SecretKeygenFlags): Promise<void> {
  const path = resolve(flags.out ?? sopsUserKeyFile(process.env));
  const tree = gitWorkTreeOf(path);
  if (tree && !flags.allowInRepository)
    throw outputRefused(
      path,
      `is inside the git work tree ${tree}: a private key there is one git add from a commit`,
      'write it outside the repository (the default is sops’s own key file), or pass --allow-in-repository if git ignores that path',
    );
  if (flags.out === undefined) await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const key = await newAgeKeyFile();
  await writeNewPrivateFile(path, key.text);
  process.stdout.write(`${key.recipient}\n`);
  note(
    [
      `Private key written to ${path} (0600). Keep it out of git; back it up where your team keeps keys.`,
      `Public key (recipient): ${key.recipient}`,
      '',
      'Encrypt for it:',
      `  groundwork secret init-rules --age ${key.recipient}    # a .sops.yaml for secrets/ (sops reads it too)`,
      'Decrypt with it on this machine (plan, apply, drift, secret decrypt and edit; sops):',
      `  export SOPS_AGE_KEY_FILE=${path}`,
      'Decrypt with it in the cluster (the agent reads every *.agekey key of the Secret):',
      `  kubectl -n groundwork-system create secret generic sops-age --from-file=age.agekey=${path}`,
      '  groundwork bootstrap --repo … --overlay … --decryption-secret sops-age',
    ].join('\n'),
  );
}

export interface SecretInitRulesFlags {
  age: string;
  dir?: string;
  secretsDir?: string;
}

/**
 * `groundwork secret init-rules --age age1…`: writes `.sops.yaml` in `--dir` (default: the current
 * directory, the repository's root) with one creation rule for the files under `--secrets-dir`
 * (`sopsRulesFile`). Never overwrites an existing `.sops.yaml`: the rule to add is printed instead.
 */
export async function runSecretInitRules(flags: SecretInitRulesFlags): Promise<void> {
  const recipients = flags.age
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const bad = recipients.filter((r) => !isAgeRecipient(r));
  if (!recipients.length || bad.length)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: '--age',
      message: `not an age recipient: ${bad.map((r) => r.slice(0, 80)).join(', ') || '(none)'}`,
      fix: 'pass the age1… recipient groundwork secret keygen printed',
    });
  const text = sopsRulesFile({ recipients, secretsDir: flags.secretsDir ?? 'secrets' });
  const path = join(resolve(flags.dir ?? '.'), '.sops.yaml');
  try {
    await writeNewPrivateFile(path, text, 0o644);
  } catch (err) {
    if (err instanceof GroundworkError && err.code === 'SecretOutputRefused')
      note(`add this rule to ${path} yourself, first in creation_rules (the first match wins):\n${text}`);
    throw err;
  }
  note(
    `wrote ${path}: sops and groundwork secret encrypt/edit encrypt new files under ${flags.secretsDir ?? 'secrets'}/ for ${recipients.join(', ')}`,
  );
  note(`next: groundwork secret edit ${flags.secretsDir ?? 'secrets'}/app.sops.yaml`);
}
