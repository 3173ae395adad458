import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { environmentsSchema, toEnvironments, type Environment } from './environments.js';
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
  /** Environments and how revisions are promoted between them (`groundwork promote`); empty: none. */
  environments?: Environment[];
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
    environments: environmentsSchema.default([]),
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
  const lines = new LineCounter();
  const doc = parseDocument(await readFile(file, 'utf8'), { lineCounter: lines });
  try {
    const first = doc.errors[0];
    if (first) throw first;
    value = doc.toJS({ maxAliasCount: 100 }) ?? {};
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
    // Each problem names the line of the value it is about (or of the deepest key that exists).
    const lineOf = (path: readonly PropertyKey[]): string => {
      for (let len = path.length; len > 0; len--) {
        const node = doc.getIn(path.slice(0, len) as (string | number)[], true) as
          { range?: [number, number, number] } | undefined;
        const offset = node?.range?.[0];
        if (offset !== undefined) return `${CONFIG_FILE}:${lines.linePos(offset).line}: `;
      }
      return '';
    };
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: CONFIG_FILE,
      message: parsed.error.issues
        .map((i) => `${lineOf(i.path)}${formatPath(i.path) || '(root)'}: ${i.message}`)
        .join('; '),
    });
  }
  return { ...parsed.data, environments: toEnvironments(parsed.data.environments) };
}
