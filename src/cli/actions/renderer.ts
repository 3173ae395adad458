import pino from 'pino';
import { z } from 'zod';
import { GroundworkError } from '../../core/errors.js';
import { synthSandboxSummary } from '../../render/render-platform.js';
import { serveRenderer } from '../../render/remote/renderer-server.js';

export interface RendererFlags {
  bind: string;
  port: string;
  maxRequestMb: string;
}

const flagsSchema = z.strictObject({
  bind: z.ipv4().or(z.ipv6()),
  port: z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(65_535)),
  maxRequestMb: z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(4096)),
});

/**
 * `groundwork renderer`: serves render requests (`serveRenderer`) on `--bind`:`--port` until
 * SIGTERM or SIGINT, logging its isolation at start and one line per render. Throws
 * `InvalidFlag` for a flag that does not read (its value not echoed).
 */
export async function runRenderer(flags: RendererFlags): Promise<void> {
  const parsed = flagsSchema.safeParse(flags);
  if (!parsed.success) {
    const flag = String(parsed.error.issues[0]?.path[0] ?? '');
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
      message: 'does not read',
      fix: 'see groundwork renderer --help',
    });
  }
  const log = pino({ name: 'groundwork-renderer' });
  log.info(await synthSandboxSummary(), 'render sandbox');
  const server = await serveRenderer({
    host: parsed.data.bind,
    port: parsed.data.port,
    maxRequestBytes: parsed.data.maxRequestMb * 1024 * 1024,
    log: (line) => log.info(line),
  });
  log.info({ bind: parsed.data.bind, port: server.port }, 'renderer listening');
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.close();
}
