import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { formatPath } from './validation.js';

/** `groundwork.yaml` at the root of a platform repository. */
export interface ProjectConfig {
  /** Platform name; names the inventory record (`<name>-<overlay>`). */
  name: string;
  /** Module exporting `definePlatform(...)` as default, relative to the repository. */
  entry: string;
  /** Directory of overlay value files. */
  overlays: string;
  /** Overlay used when none is given. */
  defaultOverlay: string;
  /** File-based catalogs (files or directories) used to check operator pins at synth time. */
  catalogs: string[];
  /** Cincinnati update-graph JSON files used to check the version target at synth time. */
  graphs: string[];
}

export const CONFIG_FILE = 'groundwork.yaml';

const schema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label')
      .max(40),
    entry: z.string().default('platform/main.ts'),
    overlays: z.string().default('overlays'),
    defaultOverlay: z.string().default('dev'),
    catalogs: z.array(z.string()).default([]),
    graphs: z.array(z.string()).default([]),
  })
  .strict();

/** Reads and validates `<dir>/groundwork.yaml`; throws `InvalidConfig` naming the file and keys. */
export async function loadProjectConfig(dir: string): Promise<ProjectConfig> {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(file)) {
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: file,
      message: 'not found',
      fix: `run groundwork from the repository root, or pass --dir; a minimal ${CONFIG_FILE} is "name: my-platform"`,
    });
  }
  let value: unknown;
  try {
    value = parse(await readFile(file, 'utf8'), { maxAliasCount: 100 }) ?? {};
  } catch (err) {
    const at = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: at ? `${CONFIG_FILE}:${at}` : CONFIG_FILE,
      message: err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err),
      fix: `fix the YAML of ${CONFIG_FILE}`,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: CONFIG_FILE,
      message: parsed.error.issues.map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`).join('; '),
    });
  }
  return parsed.data;
}
