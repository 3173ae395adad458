import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A platform repository in a fresh temp directory (not a git repository): `groundwork.yaml`
 * (entry `platform/main.ts`, overlays `overlays/`), an empty `dev` overlay, `package.json` with
 * `"type": "module"` unless `packageJson: false`, the given `platform/main.ts`, and extra files.
 * Returns its path.
 */
export function platformDir(
  main: string,
  opts: { name?: string; files?: Record<string, string>; packageJson?: boolean } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-platform-'));
  const files: Record<string, string> = {
    'groundwork.yaml': `name: ${opts.name ?? 'test-platform'}\nentry: platform/main.ts\noverlays: overlays\n`,
    'overlays/dev.yaml': '{}\n',
    ...(opts.packageJson === false ? {} : { 'package.json': '{ "type": "module" }\n' }),
    'platform/main.ts': main,
    ...opts.files,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
