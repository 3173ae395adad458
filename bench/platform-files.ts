import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes a bench's platform repository into `dir` (created when missing; files already there are
 * overwritten): `groundwork.yaml` named `name` (entry `platform/main.ts`, overlays `overlays/`),
 * `package.json` as an ES module, an empty `dev` overlay, `platform` as `platform/main.ts`, and
 * each of `files` (paths relative to `dir`).
 */
export async function writePlatformFiles(
  dir: string,
  opts: { name: string; platform: string; files: Record<string, string> },
): Promise<void> {
  const files: Record<string, string> = {
    'groundwork.yaml': `name: ${opts.name}\nentry: platform/main.ts\noverlays: overlays\n`,
    'package.json': '{ "type": "module" }\n',
    'overlays/dev.yaml': '{}\n',
    'platform/main.ts': opts.platform,
    ...opts.files,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}
