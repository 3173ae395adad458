import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename } from 'node:path';
import { readBoundedFile } from '../core/confined-file.js';
import { GroundworkError, hasCode } from '../core/errors.js';
import { openEditWorkspace } from './edit-workspace.js';
import { encryptConfigFor, type EncryptConfig, type EncryptFlags } from './encrypt-config.js';
import { encryptSopsDocument } from './encrypt-sops.js';
import { identitiesFromEnv } from './env-identities.js';
import { countComments, openSopsFile, type OpenedSopsFile } from './open-sops-file.js';
import { parsePlaintext } from './parse-plaintext.js';
import { outputRefused, replaceAtomically, writeNewPrivateFile } from './private-file.js';
import { resealSops } from './reseal-sops.js';
import { sealSecretFile } from './seal-sops.js';
import { emitDocument, formatOf } from './sops-emit.js';
import { MAX_SOPS_FILE_BYTES } from './sops-document.js';
import { pathText } from './sealed-sops.js';

/** How `secret edit` runs: the file, the flags for a new file, and its ports to the terminal. */
export interface EditSopsFileOptions {
  /** The encrypted file, as given; a new one is made when it does not exist. */
  file: string;
  env: NodeJS.ProcessEnv;
  /** How a new file is encrypted (`.sops.yaml` otherwise; ignored for an existing file). */
  flags: EncryptFlags & { config?: string };
  /** Runs the editor on the plaintext copy; rejects (EditorFailed) to give up. */
  edit: (copy: string) => Promise<void>;
  /** After a refused edit, when a terminal is there: resolves true to edit again. @default give up */
  again?: (problem: GroundworkError) => Promise<boolean>;
  /** One line for stderr; never given a plaintext. */
  note: (line: string) => void;
  /** @default () => new Date() */
  now?: () => Date;
}

/** What `editSopsFile` did. */
export type EditOutcome = 'written' | 'created' | 'unchanged';

const NEW_FILE = `# groundwork secret edit: a new SOPS file for SopsSecret (comments are not kept).
# Each key becomes a key of the Secret; or write a whole kind: Secret manifest.
example: replace me
`;

/**
 * `groundwork secret edit FILE`, as `sops edit` does it: refuses a file whose MAC does not verify
 * (or that has comments, which it would drop, or values it would relabel), writes the plaintext
 * to a private copy (`openEditWorkspace`), runs the editor, and when the copy changed encrypts it
 * again with the same data key and recipients, keeping unchanged values' ciphertext
 * (`resealSops`); a new file is encrypted for its `.sops.yaml` creation rule or flags. The result
 * must make a Secret (`checkEncryptedSecret`) and, when an identity is at hand, open to the same
 * plaintext; then it replaces the file atomically unless the file changed meanwhile
 * (EditConflict). The copy is wiped whatever happens. No plaintext reaches `note` or an error.
 */
export async function editSopsFile(opts: EditSopsFileOptions): Promise<EditOutcome> {
  const { file } = opts;
  const info = await lstat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (info?.isSymbolicLink())
    throw outputRefused(
      file,
      'is a symbolic link: edit would replace the link, not the file',
      'edit the file it points at',
    );
  const format = formatOf(file);
  let opened: OpenedSopsFile | undefined;
  let original = '';
  let config: EncryptConfig | undefined;
  let plaintext: string;
  if (info) {
    original = await readBoundedFile(file, { maxBytes: MAX_SOPS_FILE_BYTES, what: 'SOPS file' });
    opened = await openSopsFile(original, file, await identitiesFromEnv(opts.env, file));
    refuseLossyEdit(opened);
    plaintext = emitDocument(opened.plaintext, format);
  } else {
    if (!/\.(ya?ml|json)$/i.test(file))
      throw notEditable(
        file,
        'is not named .yaml, .yml or .json: sops would read it as another format',
        'name it secrets/<name>.sops.yaml',
      );
    const resolved = await encryptConfigFor(file, opts.flags, opts.env);
    if (resolved.warning) opts.note(resolved.warning);
    config = resolved.config;
    opts.note(`${file} is new: encrypting for ${config.recipients.join(', ')} (${config.from})`);
    plaintext = format === 'json' ? '{\n    "example": "replace me"\n}\n' : NEW_FILE;
  }
  const workspace = await openEditWorkspace(basename(file), plaintext, opts.env);
  try {
    for (;;) {
      await opts.edit(workspace.file);
      const edited = await workspace.read();
      if (sha256(edited) === sha256(plaintext)) {
        opts.note(`${file}: the file has not changed; nothing was written`);
        return 'unchanged';
      }
      let text: string;
      try {
        const doc = parsePlaintext(edited, 'the edited copy');
        if (countComments(doc)) opts.note('comments in the edited copy are not kept');
        const expected = emitDocument(doc, 'json');
        text = opened
          ? resealSops(opened, doc, opts.now?.() ?? new Date())
          : await encryptSopsDocument(doc, { ...config!, format, ...(opts.now ? { now: opts.now() } : {}) });
        await verify(text, file, expected, opts.env, opts.note);
      } catch (err) {
        if (!(err instanceof GroundworkError) || !opts.again || !(await opts.again(err))) throw err;
        continue;
      }
      if (opened) {
        await replaceAtomically(file, text, {
          mode: info!.mode,
          unchanged: async () => {
            const now = await readBoundedFile(file, {
              maxBytes: MAX_SOPS_FILE_BYTES,
              what: 'SOPS file',
            }).catch(() => undefined);
            if (now !== original)
              throw new GroundworkError({
                code: 'EditConflict',
                subject: file,
                message: 'changed while it was being edited: your edit was not written',
                fix: 'edit it again, on top of the other change',
              });
          },
        });
        return 'written';
      }
      await writeNewPrivateFile(file, text, 0o644);
      return 'created';
    }
  } finally {
    await workspace.wipe();
  }
}

/** Refuses what an edit would lose: comments (sops keeps them encrypted), or type labels it would change. */
function refuseLossyEdit(opened: OpenedSopsFile): void {
  if (opened.comments)
    throw notEditable(
      opened.file,
      `has ${opened.comments} comment(s), which groundwork secret edit does not keep`,
      'edit it with sops edit, or remove the comments with sops first',
    );
  const relabelled = opened.leaves.find((l) => l.type && !['str', 'int', 'float', 'bool'].includes(l.type));
  if (relabelled)
    throw notEditable(
      opened.file,
      `the value at ${pathText(relabelled.path)} is labelled type:${relabelled.type}, which an edit would write back as another type`,
      'edit it with sops edit',
    );
}

/**
 * The new file must make a Secret, and open (with an identity of the environment, when one of its
 * recipients is ours) to exactly the edited plaintext.
 */
async function verify(
  text: string,
  file: string,
  expected: string,
  env: NodeJS.ProcessEnv,
  note: (line: string) => void,
): Promise<void> {
  sealSecretFile(text, file);
  const ids = await identitiesFromEnv(env, file).catch((err: unknown) => {
    if (hasCode(err, 'SopsKeyMissing')) return undefined;
    throw err;
  });
  const reopened = ids && (await openSopsFile(text, file, ids).catch(() => undefined));
  if (!reopened) {
    note(`${file}: not opened again to check it (no identity for its recipients in SOPS_AGE_KEY_FILE)`);
    return;
  }
  if (emitDocument(reopened.plaintext, 'json') !== expected)
    throw notEditable(
      file,
      'did not open to the edited plaintext after encryption: nothing was written',
      'report this',
    );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SopsFileInvalid with its own fix: a file `secret edit` will not edit. */
function notEditable(file: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'SopsFileInvalid', subject: file, message, fix });
}
