import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { errorMessage, type GroundworkError } from '../../core/errors.js';
import { editSopsFile } from '../../secrets/edit-sops-file.js';
import { editorCommand, editorFailed, runEditor } from '../../secrets/editor-command.js';
import type { SecretEncryptFlags } from './secret.js';
import { note } from './secret.js';

/**
 * `groundwork secret edit FILE`: `editSopsFile` with the terminal. The editor (`$SOPS_EDITOR`,
 * `$EDITOR`, else vim, nano or vi; split into words, run without a shell) owns the terminal while
 * it runs, so Ctrl-C goes to it; SIGTERM or SIGHUP stop it and give up. After a refused edit, on a
 * terminal, Enter opens the editor again on the same copy and Ctrl-C gives up; without a terminal
 * the refusal is the command's error. The private copy is wiped in every case.
 */
export async function runSecretEdit(file: string, flags: SecretEncryptFlags): Promise<void> {
  const argv = editorCommand(process.env);
  let child: ChildProcess | undefined;
  let editing = false;
  const cancel = new AbortController();
  const onInterrupt = () => {
    if (!editing) cancel.abort();
  };
  const onTerminate = () => {
    child?.kill('SIGTERM');
    cancel.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onTerminate);
  try {
    const outcome = await editSopsFile({
      file,
      env: process.env,
      flags,
      note,
      edit: async (copy) => {
        if (cancel.signal.aborted) throw editorFailed('interrupted; nothing was written');
        editing = true;
        try {
          await runEditor(argv, copy, (c) => (child = c));
        } finally {
          editing = false;
          child = undefined;
        }
        if (cancel.signal.aborted) throw editorFailed('interrupted; nothing was written');
      },
      ...(process.stdin.isTTY ? { again: (problem) => askAgain(problem, cancel.signal) } : {}),
    });
    if (outcome !== 'unchanged') note(`${file}: ${outcome === 'created' ? 'created' : 'written'}`);
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
  }
}

/** Shows why an edit was refused (no plaintext in it) and waits for Enter (edit again) or Ctrl-C. */
async function askAgain(problem: GroundworkError, signal: AbortSignal): Promise<boolean> {
  note(`error: ${errorMessage(problem)}`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const stop = new AbortController();
  // On a terminal readline reads Ctrl-C itself and tells only its own listeners.
  rl.on('SIGINT', () => stop.abort());
  try {
    await rl.question('Press Enter to edit again, or Ctrl-C to give up (nothing is written). ', {
      signal: AbortSignal.any([signal, stop.signal]),
    });
    return true;
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
