import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The packages `npm install cdk8s-plus-33` leaves in a node_modules: the library and its peers. */
export const CDK8S_PLUS = ['cdk8s-plus-33', 'cdk8s', 'constructs'];

const checkoutModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

/** Copies `packages` from this checkout's node_modules into `<dir>/node_modules` (links kept as they are). */
export function copyPackages(dir: string, packages: readonly string[] = CDK8S_PLUS): string {
  for (const pkg of packages)
    cpSync(join(checkoutModules, pkg), join(dir, 'node_modules', pkg), {
      recursive: true,
      verbatimSymlinks: true,
    });
  return dir;
}

/** A tiny ES-module package `name` in `<dir>/node_modules`: a package.json and `index.js` holding `body`. */
export function fakePackage(dir: string, name: string, body: string, version = '1.0.0'): void {
  const pkg = join(dir, 'node_modules', name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name, version, type: 'module', main: 'index.js' }),
  );
  writeFileSync(join(pkg, 'index.js'), body);
}
