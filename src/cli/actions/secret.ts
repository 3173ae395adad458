import { readFile, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { GroundworkError } from '../../core/errors.js';
import { encryptSops } from '../../secrets/encrypt-sops.js';

export interface SecretEncryptFlags {
  age: string;
  encryptedRegex?: string;
  inPlace?: boolean;
}

const RECIPIENT = /^age1[0-9a-z]+$/;

/**
 * `groundwork secret encrypt`: the user's plaintext file, encrypted with `encryptSops` for the
 * given age recipients, to stdout or back into the file. Refuses a file that is already encrypted
 * (a `sops` key) or is not a map; errors never quote the file's content.
 */
export async function runSecretEncrypt(file: string, flags: SecretEncryptFlags): Promise<void> {
  const recipients = flags.age.split(',').map((r) => r.trim());
  const bad = recipients.filter((r) => !RECIPIENT.test(r));
  if (bad.length || !recipients.length)
    throw new GroundworkError({
      code: 'Usage',
      subject: '--age',
      message: `not an age recipient: ${bad.join(', ') || '(none)'}`,
      fix: 'pass the age1… recipient age-keygen printed (age-keygen -y key.txt prints it again)',
    });
  let tree: unknown;
  try {
    tree = parse(await readFile(file, 'utf8'));
  } catch {
    throw new GroundworkError({ code: 'Usage', subject: file, message: 'not a readable YAML or JSON file' });
  }
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree))
    throw new GroundworkError({ code: 'Usage', subject: file, message: 'not a map of keys to values' });
  if ('sops' in tree)
    throw new GroundworkError({
      code: 'Usage',
      subject: file,
      message: 'is already encrypted (it has a sops key)',
    });
  const text = await encryptSops(tree as Record<string, unknown>, {
    recipients,
    format: file.endsWith('.json') ? 'json' : 'yaml',
    ...(flags.encryptedRegex ? { encryptedRegex: flags.encryptedRegex } : {}),
  });
  if (flags.inPlace) await writeFile(file, text);
  else process.stdout.write(text);
}
