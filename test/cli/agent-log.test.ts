import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { agentLogger, logFormatOf } from '../../src/cli/agent-log.js';

function sink(): { out: Writable; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

describe('the agent log format (issue 32, item 9)', () => {
  it('is pretty on a terminal and JSON elsewhere, unless GROUNDWORK_LOG_FORMAT says', () => {
    expect(logFormatOf({}, true)).toBe('pretty');
    expect(logFormatOf({}, false)).toBe('json');
    expect(logFormatOf({}, undefined)).toBe('json');
    expect(logFormatOf({ GROUNDWORK_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatOf({ GROUNDWORK_LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(logFormatOf({ GROUNDWORK_LOG_FORMAT: 'yaml' }, false)).toBe('json');
  });

  it('writes JSON lines in json', () => {
    const { out, text } = sink();
    agentLogger({ name: 'groundwork-agent', level: 'info', format: 'json', out }).info(
      { revision: 'main@sha1:ab' },
      'revision applied',
    );
    expect(JSON.parse(text())).toMatchObject({
      level: 30,
      msg: 'revision applied',
      revision: 'main@sha1:ab',
      name: 'groundwork-agent',
    });
  });

  it('writes one readable line per entry in pretty: level, message, fields; no pid or hostname', () => {
    const { out, text } = sink();
    const log = agentLogger({ name: 'groundwork-agent', level: 'info', format: 'pretty', out });
    log.info({ revision: 'main@sha1:ab', ms: 42 }, 'revision applied');
    log.debug('not at info');
    log.warn({ objects: ['a', 'b'] }, 'drift detected');
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: revision applied \{"revision":"main@sha1:ab","ms":42\}$/,
    );
    expect(lines[1]).toMatch(/WARN: drift detected \{"objects":\["a","b"\]\}$/);
    expect(text()).not.toContain('hostname');
    expect(text()).not.toContain('\u001b['); // no colors unless asked
  });
});
