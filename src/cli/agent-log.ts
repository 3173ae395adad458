import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

/** How the agent writes its log: JSON lines (for collectors), or one readable line per entry. */
export type LogFormat = 'json' | 'pretty';

/**
 * The format `GROUNDWORK_LOG_FORMAT` asks for (`json` or `pretty`), else `pretty` on a terminal
 * and `json` anywhere else (a pod, a pipe, a file), so log collectors keep getting JSON.
 */
export function logFormatOf(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): LogFormat {
  const asked = env.GROUNDWORK_LOG_FORMAT;
  if (asked === 'json' || asked === 'pretty') return asked;
  return isTTY ? 'pretty' : 'json';
}

/**
 * The agent's logger, writing to `out`: JSON lines, or in `pretty` pino-pretty's lines (time,
 * level, message, the other fields on the same line) with colors when `colorize`. Log fields
 * carry text from git and the cluster (commit messages, object names, error messages): in
 * `pretty` every control character in them is written as `\u001b`-style text, so no log line can
 * move the cursor, retitle or clear the terminal (JSON lines escape them already).
 */
export function agentLogger(opts: {
  name: string;
  /** pino level; @default info */
  level?: string | undefined;
  format: LogFormat;
  out?: NodeJS.WritableStream;
  /** @default false */
  colorize?: boolean;
}): Logger {
  const out = opts.out ?? process.stdout;
  if (opts.format === 'json')
    return pino({ name: opts.name, level: opts.level ?? 'info' }, out as pino.DestinationStream);
  const pretty = prettyFactory({
    colorize: opts.colorize ?? false,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    // The agent logs errors as strings (`err: String(err)`): keep them on the entry's line.
    errorLikeObjectKeys: [],
  });
  const lines = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          entry = { level: 30, msg: line };
        }
        out.write(pretty(inert(entry)));
      }
      done();
    },
  });
  return pino({ name: opts.name, level: opts.level ?? 'info' }, lines);
}

/** `value` with every control character of every string (keys included) written out as `\uXXXX`. */
function inert(value: unknown): unknown {
  if (typeof value === 'string') return escapeControls(value);
  if (Array.isArray(value)) return value.map(inert);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeControls(k), inert(v)]));
  return value;
}

function escapeControls(s: string): string {
  // C0, DEL and C1 (a lone 0x9b is CSI on some terminals); newlines too, so one entry stays one line.
  return s.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
