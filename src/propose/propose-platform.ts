import { realpath } from 'node:fs/promises';
import type { OutboundPolicy } from '../core/outbound-url.js';
import { loadProjectConfig } from '../project/config.js';
import { PROPOSE_DEFAULT_CONFIG } from '../project/propose-config.js';
import { renderPlatform } from '../render/render-platform.js';
import { chartRenderCheck } from './chart-render-check.js';
import { proposeUpdates, type ProposeSources } from './engine.js';
import { targetEnvironment } from './environment.js';
import { pinsOf } from './pins.js';
import { projectSources } from './project-sources.js';
import type { ProposalSet } from './proposal.js';
import { readPlatformFiles } from './read-platform-files.js';

export interface ProposePlatformOptions {
  /** Another environment than the first of the promotion chain. */
  readonly environment?: string;
  /** Render where the renderer cannot be isolated (`--trust-repository`). @default false */
  readonly trustRepository?: boolean;
  /** Where chart requests may go. @default this process's policy */
  readonly policy?: OutboundPolicy;
  /** Replaces the repository's sources (tests, fault injection). @default `projectSources` */
  readonly sources?: ProposeSources;
  /** @default now */
  readonly now?: Date;
}

/**
 * `groundwork propose` for the checkout `dir`, without publishing anything: reads groundwork.yaml,
 * synthesizes the overlays of the target environment without rendering charts (`renderPlatform`,
 * trust domain `local`, as `chart lock` does) to find the pins, reads the files it may edit, and
 * asks `proposeUpdates`; a chart version is proposed only when it renders, twice the same, with the
 * environment's overlays (`chartRenderCheck`, in the isolated renderer). Throws `SynthValidationError` when the platform does not synthesize, and
 * the config's errors; a catalog, graph or chart source that cannot be read refuses its pins.
 */
export async function proposePlatform(dir: string, opts: ProposePlatformOptions = {}): Promise<ProposalSet> {
  const root = await realpath(dir);
  const config = await loadProjectConfig(root);
  const environment = targetEnvironment(config, opts.environment);
  const rendered = [];
  for (const overlay of environment.overlays)
    rendered.push(
      ...(await renderPlatform(root, {
        overlay,
        domain: 'local',
        render: false,
        ...(opts.trustRepository ? { trustRepository: true } : {}),
      })),
    );
  return proposeUpdates({
    environment: environment.name,
    pins: pinsOf(rendered),
    config: config.propose ?? PROPOSE_DEFAULT_CONFIG,
    files: await readPlatformFiles(root, config, environment.overlays),
    sources: opts.sources ?? {
      ...projectSources(root, config, opts.policy ? { policy: opts.policy } : {}),
      chartRenders: chartRenderCheck({
        root,
        overlays: environment.overlays,
        ...(opts.trustRepository ? { trustRepository: true } : {}),
      }),
    },
    now: opts.now ?? new Date(),
  });
}
