import { lstat, realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readBoundedFile } from '../../core/confined-file.js';
import { encryptConfigFor, type EncryptFlags } from '../../secrets/encrypt-config.js';
import { encryptSopsDocument } from '../../secrets/encrypt-sops.js';
import { identitiesFromEnv } from '../../secrets/env-identities.js';
import { countComments, openSopsFile } from '../../secrets/open-sops-file.js';
import { parsePlaintext } from '../../secrets/parse-plaintext.js';
import {
  gitWorkTreeOf,
  outputRefused,
  replaceAtomically,
  writeNewPrivateFile,
} from '../../secrets/private-file.js';
import { sealSecretFile } from '../../secrets/seal-sops.js';
import { emitDocument, formatOf } from '../../secrets/sops-emit.js';
import { MAX_SOPS_FILE_BYTES } from '../../secrets/sops-document.js';

export interface SecretEncryptFlags extends EncryptFlags {
  config?: string;
  inPlace?: boolean;
}

/**
 * `groundwork secret encrypt FILE`: the user's plaintext file encrypted for the recipients and
 * rules of its `.sops.yaml` creation rule (flags override, as in sops), to stdout or back into the
 * file (atomically). The result must make a `SopsSecret` (`sealSecretFile`: every value encrypted
 * text), so a rule that would leave a value readable is refused before anything is written.
 * Errors never quote the file's content.
 */
export async function runSecretEncrypt(file: string, flags: SecretEncryptFlags): Promise<void> {
  const text = await readBoundedFile(file, { maxBytes: MAX_SOPS_FILE_BYTES, what: 'plaintext file' });
  const doc = parsePlaintext(text, file);
  if (countComments(doc)) note('comments are not kept (sops would encrypt them; Groundwork drops them)');
  const { config, warning } = await encryptConfigFor(file, flags, process.env);
  if (warning) note(warning);
  const out = await encryptSopsDocument(doc, { ...config, format: formatOf(file) });
  sealSecretFile(out, file);
  note(`encrypted for ${config.recipients.join(', ')} (${config.from})`);
  if (!flags.inPlace) {
    process.stdout.write(out);
    return;
  }
  const info = await lstat(file);
  if (info.isSymbolicLink())
    throw outputRefused(
      file,
      'is a symbolic link: --in-place would replace the link',
      'encrypt the file it points at',
    );
  await replaceAtomically(file, out, {
    mode: info.mode,
    unchanged: async () => {
      const now = await readBoundedFile(file, { maxBytes: MAX_SOPS_FILE_BYTES, what: 'plaintext file' });
      if (now !== text)
        throw outputRefused(
          file,
          'changed while it was being encrypted: nothing was written',
          'run it again',
        );
    },
  });
}

export interface SecretDecryptFlags {
  out?: string;
  allowInRepository?: boolean;
}

/**
 * `groundwork secret decrypt FILE`: the verified plaintext (every value and the MAC checked with
 * `SOPS_AGE_KEY_FILE` or `SOPS_AGE_KEY` before anything is printed) to stdout, or to a new file
 * `--out` (0600, never over a file or through a link). `--out` is refused beside the encrypted file
 * or inside a git work tree unless `--allow-in-repository`. Comments are not shown.
 */
export async function runSecretDecrypt(file: string, flags: SecretDecryptFlags): Promise<void> {
  if (flags.out !== undefined && !flags.allowInRepository) await refuseBeside(flags.out, file);
  const text = await readBoundedFile(file, { maxBytes: MAX_SOPS_FILE_BYTES, what: 'SOPS file' });
  const opened = await openSopsFile(text, file, await identitiesFromEnv(process.env, file));
  if (opened.comments)
    note(`${file}: ${opened.comments} comment(s) not shown (Groundwork does not decrypt comments)`);
  const plain = emitDocument(opened.plaintext, opened.format);
  if (flags.out === undefined) process.stdout.write(plain);
  else await writeNewPrivateFile(flags.out, plain);
}

/** Refuses a plaintext `out` in the encrypted file's directory or in any git work tree. */
async function refuseBeside(out: string, file: string): Promise<void> {
  const fix =
    'write it outside the repository (e.g. --out ~/scratch/secret.yaml), or pass --allow-in-repository if git ignores that path';
  const tree = gitWorkTreeOf(out);
  if (tree)
    throw outputRefused(
      out,
      `is inside the git work tree ${tree}: a plaintext there is one git add from a commit`,
      fix,
    );
  const real = async (p: string) => realpath(dirname(resolve(p))).catch(() => dirname(resolve(p)));
  if ((await real(out)) === (await real(file)))
    throw outputRefused(
      out,
      'is beside the encrypted file: a plaintext there is easily committed or synced with it',
      fix,
    );
}

/** A line on stderr (never a plaintext). */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}
