// Issue 32, item 9 made the agent's log readable lines on a terminal. Log fields carry text from
// git and the cluster (commit messages, object names, errors): JSON escaped control characters,
// a pretty line must too, or a commit message could clear the screen, rewrite earlier lines,
// set the window title or plant an OSC 8 link in the operator's terminal.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { agentLogger } from '../../src/cli/agent-log.js';

const HOSTILE =
  'fix\u001b[2J\u001b]0;pwned\u0007\r\u009b31m\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\\nfake: line';

function logged(colorize: boolean, write: (log: ReturnType<typeof agentLogger>) => void): string {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  write(agentLogger({ name: 'groundwork-agent', level: 'info', format: 'pretty', out, colorize }));
  return chunks.join('');
}

describe('a pretty agent log line with hostile text', () => {
  it.each([false, true])(
    'carries no control character from the message, fields or keys (colorize %s)',
    (colorize) => {
      const text = logged(colorize, (log) => {
        log.info({ subject: HOSTILE, [HOSTILE]: 1, nested: { list: [HOSTILE] }, err: HOSTILE }, HOSTILE);
      });
      // Colors are ours (ESC [ digits m); nothing else of C0, DEL or C1 remains.
      // eslint-disable-next-line no-control-regex
      const stripped = text.replace(/\u001b\[\d+(;\d+)*m/g, '');
      // eslint-disable-next-line no-control-regex
      expect(stripped.replace(/\n$/, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(text.trimEnd().split('\n')).toHaveLength(1);
      expect(stripped).toContain('fix\\u001b[2J');
    },
  );

  it('escapes a message given alone', () => {
    const text = logged(false, (log) => log.info(HOSTILE));
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\n$/, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
