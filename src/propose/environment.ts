import { GroundworkError } from '../core/errors.js';
import type { ProjectConfig } from '../project/config.js';

/** The environment proposals target and the overlays its clusters use. */
export interface TargetEnvironment {
  readonly name: string;
  readonly overlays: readonly string[];
}

/**
 * The first environment of the promotion chain: the first one of groundwork.yaml that is promoted
 * from none (commits land there; later environments get the change by `groundwork promote`). A
 * platform without environments is one environment named after its default overlay. `asked` (the
 * `--environment` flag) picks another. Also checks that `propose.environments` names only
 * environments that exist. Throws `InvalidConfig` / `InvalidFlag`.
 */
export function targetEnvironment(
  config: Pick<ProjectConfig, 'environments' | 'defaultOverlay' | 'propose'>,
  asked?: string,
): TargetEnvironment {
  const envs = (config.environments ?? []).map((e) => ({
    name: e.name,
    overlays: e.overlays,
    from: e.promotedFrom,
  }));
  const all =
    envs.length > 0
      ? envs
      : [{ name: config.defaultOverlay, overlays: [config.defaultOverlay], from: undefined }];
  const unknown = Object.keys(config.propose?.environments ?? {}).filter(
    (n) => !all.some((e) => e.name === n),
  );
  if (unknown.length > 0)
    throw new GroundworkError({
      code: 'InvalidConfig',
      subject: 'groundwork.yaml propose.environments',
      message: `names no environment: ${unknown.map((n) => JSON.stringify(n)).join(', ')}`,
      fix: `use the environment names: ${all.map((e) => e.name).join(', ')}`,
    });
  const chosen =
    asked === undefined ? all.find((e) => e.from === undefined) : all.find((e) => e.name === asked);
  if (!chosen)
    throw new GroundworkError({
      code: 'InvalidFlag',
      subject: `--environment ${JSON.stringify(asked ?? '')}`,
      message: asked === undefined ? 'every environment is promoted from another' : 'no such environment',
      fix: `use one of: ${all.map((e) => e.name).join(', ')}`,
    });
  return { name: chosen.name, overlays: chosen.overlays };
}
