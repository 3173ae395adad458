import { Construct } from 'constructs';
import { z } from 'zod';
import { validateProps } from '../synth/validation.js';
import { recordRender } from '../recorded/recorded.js';

export interface KustomizationProps {
  /**
   * The directory holding `kustomization.yaml`, relative to the repository root
   * (`deploy/overlays/prod`). Its bases and components must be directories of the repository too:
   * remote bases (`github.com/...`, `https://...`) are refused.
   */
  readonly dir: string;
}

const propsSchema = z.strictObject({
  dir: z
    .string()
    .min(1)
    .refine((p) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(p) && !p.startsWith('/'), {
      message: 'must be a directory of the repository, relative to its root',
      params: { fix: 'vendor the base into the repository and name its directory, e.g. deploy/base' },
    }),
});

/**
 * A Kustomize directory of the repository, rendered at synth by the real `kustomize build`
 * (outside the platform-code sandbox: platform code only records it). Its objects join the
 * platform's with this construct's path. Remote bases, exec plugins and helm inflation are refused.
 *
 * @example
 * new Kustomization(platform, 'monitoring', { dir: 'deploy/monitoring/overlays/prod' });
 */
export class Kustomization extends Construct {
  constructor(scope: Construct, id: string, props: KustomizationProps) {
    super(scope, id);
    const parsed = validateProps(this, propsSchema, props);
    if (parsed) recordRender(this, { engine: 'kustomize', path: this.node.path, dir: parsed.dir });
  }
}
