import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where in the platform's own code a stack points: the first frame in a file under `dir` (the
 * checkout, symbolic links resolved or not) and outside `node_modules`, as `platform/main.ts:12`
 * relative to `dir`. Undefined when no frame is there (a stack of Groundwork's code only). Pure
 * but for resolving `dir`; quotes nothing of the files.
 *
 * @example codeSite(err.stack, '/repo') // 'platform/main.ts:7'
 */
export function codeSite(stack: string | undefined, dir: string): string | undefined {
  if (!stack) return undefined;
  const roots = [dir, safeRealpath(dir)];
  for (const line of stack.split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (!isAbsolute(file)) continue;
    for (const root of roots) {
      const rel = relative(root, file);
      if (rel && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('node_modules'))
        return `${rel.split(sep).join('/')}:${m[2]}`;
    }
  }
  return undefined;
}

function safeRealpath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
