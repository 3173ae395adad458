import { GroundworkError } from '../core/errors.js';

/** Where Groundwork's agent image is published, once it is: `<repository>:<version>`. */
export const AGENT_IMAGE_REPOSITORY = 'ghcr.io/groundwork-platform/groundwork';

/**
 * The versions whose image is published at `AGENT_IMAGE_REPOSITORY` (pushed by a release). None
 * yet: the image is built from the `Dockerfile` by whoever installs the agent. A release adds its
 * version here.
 */
export const PUBLISHED_AGENT_IMAGE_VERSIONS: readonly string[] = [];

/** The default agent image for a Groundwork version: `ghcr.io/groundwork-platform/groundwork:<version>`. */
export function defaultAgentImage(version: string): string {
  return `${AGENT_IMAGE_REPOSITORY}:${version}`;
}

/**
 * The image `bootstrap` installs the agent with: `image` when one was given (the caller vouches
 * for it: built from the Dockerfile and pushed), else the default for `version`. The default of a
 * version that is not published is refused with `AgentImageUnpublished` (the pods could never pull
 * it) unless `allowUnpublished`; the caller checks before it creates anything.
 */
export function agentImageFor(opts: { image?: string; version: string; allowUnpublished: boolean }): string {
  if (opts.image !== undefined) return opts.image;
  const image = defaultAgentImage(opts.version);
  if (opts.allowUnpublished || PUBLISHED_AGENT_IMAGE_VERSIONS.includes(opts.version)) return image;
  throw new GroundworkError({
    code: 'AgentImageUnpublished',
    subject: '--image',
    message: `the default agent image ${image} is not published for Groundwork ${opts.version}, so the agent's pods could not pull it; nothing was created`,
    fix: `build it from Groundwork's Dockerfile (docker build -t <registry>/groundwork:${opts.version} .), push it where the cluster can pull it and pass --image <registry>/groundwork:${opts.version}; or pass --allow-unpublished-image to install with ${image} anyway (--print only prints)`,
  });
}
