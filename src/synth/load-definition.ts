import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GroundworkError } from '../core/errors.js';
import { isPlatformDefinition, type PlatformDefinition } from './define-platform.js';

/**
 * Imports a platform module and returns its `definePlatform(...)` default export.
 * TypeScript is compiled on the fly (tsx in the CLI and the synth child, vite in tests).
 * Syntax and import errors become `CompileFailed` naming the file; nothing is synthesized.
 */
export async function loadDefinition(file: string): Promise<PlatformDefinition> {
  if (!existsSync(file)) {
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: 'platform entry not found',
      fix: 'set `entry` in groundwork.yaml',
    });
  }
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: err instanceof Error ? firstLines(err.message, 12) : String(err),
      fix: 'fix the TypeScript error above; the previous revision stays applied',
      cause: err,
    });
  }
  if (!isPlatformDefinition(mod.default)) {
    throw new GroundworkError({
      code: 'CompileFailed',
      subject: file,
      message: 'the default export is not a platform definition',
      fix: 'export default definePlatform({ values, build })',
    });
  }
  return mod.default;
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n');
}
