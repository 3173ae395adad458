import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { GroundworkError } from '../core/errors.js';

/** EditorFailed with `message`; the fix says how to name an editor. */
export function editorFailed(message: string, fix?: string): GroundworkError {
  return new GroundworkError({
    code: 'EditorFailed',
    subject: 'secret edit',
    message,
    fix:
      fix ??
      'set EDITOR (or SOPS_EDITOR) to an editor that waits until the file is closed, e.g. "code --wait"',
  });
}

/**
 * The words of an editor command, split as sops splits `$EDITOR` (google/shlex): blanks separate
 * words, `'…'` keeps everything literally, `"…"` and a backslash keep the next character, `#` at
 * the start of a word begins a comment. Nothing is expanded and no shell runs, so `;`, `|`, `$(…)`
 * and backquotes are ordinary characters of a word. Undefined for an unterminated quote or escape.
 */
export function splitCommand(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return undefined;
      word = (word ?? '') + text[++i];
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
    } else word = (word ?? '') + c;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The editor `secret edit` runs, as sops chooses it: `SOPS_EDITOR`, else `EDITOR` (split by
 * `splitCommand`, the file's path appended as the last argument), else the first of vim, nano and
 * vi on `PATH`. Throws EditorFailed when the variable does not split into words or no editor is
 * found. The variable's text is not quoted in errors beyond its first 80 characters.
 */
export function editorCommand(env: NodeJS.ProcessEnv): string[] {
  for (const name of ['SOPS_EDITOR', 'EDITOR'] as const) {
    const value = env[name];
    if (!value) continue;
    const words = splitCommand(value);
    if (!words?.length || !words[0])
      throw editorFailed(
        `$${name} (${JSON.stringify(value.slice(0, 80))}) is not a command: an unterminated quote or escape, or no word`,
      );
    return words;
  }
  for (const name of ['vim', 'nano', 'vi']) {
    const found = onPath(name, env.PATH ?? '');
    if (found) return [found];
  }
  throw editorFailed(
    'no editor: neither SOPS_EDITOR nor EDITOR is set, and none of vim, nano, vi is on PATH',
  );
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Runs the editor `argv` on `file` (appended as its last argument) with the terminal as its stdin,
 * stdout and stderr and no shell, and resolves once it exits 0. Rejects with EditorFailed when it
 * cannot start, exits non-zero or is killed. `started` receives the child, so the caller can stop
 * it on SIGTERM or SIGHUP.
 */
export function runEditor(
  argv: readonly string[],
  file: string,
  started?: (child: ChildProcess) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, [...argv.slice(1), file], { stdio: 'inherit', shell: false });
    started?.(child);
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        editorFailed(
          `the editor ${JSON.stringify(argv[0]!.slice(0, 80))} could not start (${err.code ?? 'error'})`,
        ),
      ),
    );
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          editorFailed(
            `the editor ${signal ? `was stopped by ${signal}` : `exited with ${code}`}; nothing was written`,
            'save and close the file normally to keep an edit; quitting without saving leaves the file as it was',
          ),
        );
    });
  });
}
