import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorCommand, splitCommand } from '../../src/secrets/editor-command.js';

describe('splitCommand (as sops splits $EDITOR, google/shlex)', () => {
  it('splits on blanks; quotes and backslashes keep characters; # starts a comment', () => {
    expect(splitCommand('code --wait')).toEqual(['code', '--wait']);
    expect(splitCommand(`'/opt/My Editor/bin/ed' -w`)).toEqual(['/opt/My Editor/bin/ed', '-w']);
    expect(splitCommand('"a \\"b\\"" c\\ d')).toEqual(['a "b"', 'c d']);
    expect(splitCommand("''")).toEqual(['']);
    expect(splitCommand('vim # a comment')).toEqual(['vim']);
    expect(splitCommand('a#b')).toEqual(['a#b']);
  });

  it('expands nothing: ; | $( ) and backquotes are characters of a word', () => {
    expect(splitCommand('vi; rm -rf x')).toEqual(['vi;', 'rm', '-rf', 'x']);
    expect(splitCommand('$(touch p) `id` a|b $HOME')).toEqual(['$(touch', 'p)', '`id`', 'a|b', '$HOME']);
  });

  it('an unterminated quote or a trailing backslash is no command', () => {
    expect(splitCommand("vim 'x")).toBeUndefined();
    expect(splitCommand('vim "x')).toBeUndefined();
    expect(splitCommand('vim \\')).toBeUndefined();
  });
});

describe('editorCommand', () => {
  it('SOPS_EDITOR before EDITOR; else vim, nano, vi on PATH; else EditorFailed', () => {
    expect(editorCommand({ SOPS_EDITOR: 'nano -w', EDITOR: 'vim' })).toEqual(['nano', '-w']);
    expect(editorCommand({ SOPS_EDITOR: '', EDITOR: 'emacs -nw' })).toEqual(['emacs', '-nw']);
    const bin = mkdtempSync(join(tmpdir(), 'gw-editor-path-'));
    for (const name of ['nano', 'vi']) {
      writeFileSync(join(bin, name), '#!/bin/sh\n');
      chmodSync(join(bin, name), 0o755);
    }
    writeFileSync(join(bin, 'vim'), 'not executable');
    expect(editorCommand({ PATH: `relative:${bin}` })).toEqual([join(bin, 'nano')]);
    expect(() => editorCommand({ PATH: '' })).toThrow(/no editor: neither SOPS_EDITOR nor EDITOR/);
    expect(() => editorCommand({ EDITOR: "vim 'x" })).toThrow(
      expect.objectContaining({ code: 'EditorFailed' }),
    );
    expect(() => editorCommand({ EDITOR: '   ' })).toThrow(/is not a command/);
  });
});
