import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { environmentsSchema, toEnvironments, type Environment } from './environments.js';
import { z } from 'zod';
import { readConfinedFile } from '../core/confined-file.js';
import { GroundworkError } from '../core/errors.js';
import { failureLocation, yamlFailure } from '../core/parse-failure.js';
import { keyPath } from '../core/zod-issues.js';
import { unmanagedSchema, type UnmanagedConfig } from './unmanaged-config.js';

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
  /** Objects in managed namespaces that Groundwork did not apply: whether and how to report them (`unmanaged:`). */
  unmanaged?: UnmanagedConfig;
}

export const CONFIG_FILE = 'groundwork.yaml';

/** The largest groundwork.yaml read (real ones are a few hundred bytes). */
const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * Whether groundwork.yaml may name `path` (`overlays`, `catalogs`, `graphs`): relative, inside the
 * repository (no `..` segment), and not the repository itself. Symbolic links are checked when
 * the path is read (`readConfinedFile`).
 */
function isRepositoryPath(path: string): boolean {
  const segments = path.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  return !isAbsolute(path) && !path.includes('\0') && segments.length > 0 && !segments.includes('..');
}

const repositoryPath = z
  .string()
  .refine(isRepositoryPath, 'must be a path inside the repository: relative, without ".." segments');

const schema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
        error: (iss) => `${quoteName(iss.input)} is not a DNS label (lowercase letters, digits, -)`,
      })
      .max(40),
    entry: z.string().default('platform/main.ts'),
    overlays: repositoryPath.default('overlays'),
    defaultOverlay: z.string().default('dev'),
    catalogs: z.array(repositoryPath).default([]),
    graphs: z.array(repositoryPath).default([]),
    environments: environmentsSchema.default([]),
    unmanaged: unmanagedSchema.optional(),
  })
  .strict();

/** A value as an error quotes it: JSON, cut at 64 characters (a name, never a file's content). */
export function quoteName(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}

/**
 * Reads and validates `<dir>/groundwork.yaml`; throws `InvalidConfig` naming the file and keys
 * (a YAML error by line, column and the parser's reason, never the text), `PathOutsideCheckout`
 * when the file is a link out of the checkout, `FileTooLarge` past `CONFIG_MAX_BYTES`.
 */
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
  const text = await readConfinedFile({
    root: dir,
    path: CONFIG_FILE,
    maxBytes: CONFIG_MAX_BYTES,
    what: CONFIG_FILE,
  });
  const doc = parseDocument(text, { lineCounter: lines });
  try {
    const first = doc.errors[0];
    if (first) throw first;
    value = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    const failure = yamlFailure(err);
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: failureLocation(CONFIG_FILE, failure),
      message: failure.reason,
      fix: `fix the YAML of ${CONFIG_FILE}`,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    // Each problem names the line of the value it is about (or of the deepest key that exists).
    const lineOf = (path: readonly PropertyKey[]): number | undefined => {
      for (let len = path.length; len > 0; len--) {
        const node = doc.getIn(path.slice(0, len) as (string | number)[], true) as
          { range?: [number, number, number] } | undefined;
        const offset = node?.range?.[0];
        if (offset !== undefined) return lines.linePos(offset).line;
      }
      return undefined;
    };
    const issues = parsed.error.issues;
    const only = issues.length === 1 ? lineOf(issues[0]!.path) : undefined;
    throw new GroundworkError({
      code: 'InvalidConfig',
      // One problem: the file and its line are the subject; several: each names its line.
      subject: only !== undefined ? `${CONFIG_FILE}:${only}` : CONFIG_FILE,
      message: issues
        .map((i) => {
          const line = issues.length === 1 ? undefined : lineOf(i.path);
          return `${line !== undefined ? `line ${line}: ` : ''}${keyPath(i.path) || '(root)'}: ${i.message}`;
        })
        .join('; '),
      fix: `correct ${CONFIG_FILE} as said; its keys are name, entry, overlays, defaultOverlay, catalogs, graphs, environments and unmanaged`,
    });
  }
  const { unmanaged, ...rest } = parsed.data;
  return {
    ...rest,
    environments: toEnvironments(parsed.data.environments),
    ...(unmanaged ? { unmanaged } : {}),
  };
}
