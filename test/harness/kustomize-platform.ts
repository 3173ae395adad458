import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { platformDir } from './platform-dir.js';

const KUSTOMIZE = fileURLToPath(new URL('../fixtures/charts/kustomize', import.meta.url));

/**
 * A platform whose one construct is `Kustomization 'greeter'` over `dir`, with the kustomize
 * fixture (`base/`, `overlays/prod/`) copied to `deploy/` and then `files` written over it
 * (paths from the platform root). Returns the platform's path.
 */
export function kustomizePlatform(dir = 'deploy/overlays/prod', files: Record<string, string> = {}): string {
  const root = platformDir(
    `import { definePlatform, Platform, Kustomization, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new Kustomization(platform, 'greeter', { dir: ${JSON.stringify(dir)} });
  },
});
`,
  );
  cpSync(KUSTOMIZE, join(root, 'deploy'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
