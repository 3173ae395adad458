import { POST_SYNTH_CHECKS } from '../reconcile/domains.js';
import { SynthValidationError, formatIssue } from '../render/synth/validation.js';
import { renderPlatform } from '../render/render-platform.js';
import type { Project } from '../project/project.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import { decryptSopsSecrets } from '../secrets/decrypt-secrets.js';
import { identitiesFromEnv } from '../secrets/env-identities.js';
import type { ClusterFlags } from './cluster-flags.js';

/**
 * Renders `project` for a cluster command (`renderPlatform`, trust domain `local`): platform code, helm and
 * kustomize run in the renderer, which holds none of the caller's credentials and cannot reach
 * this process; on validation errors prints every issue and returns undefined (the caller exits 2
 * without touching the cluster). SopsSecrets stay sealed: `decryptForCommand` opens them once the
 * cluster's kubeconfig has been found, so a missing kubeconfig is reported before a missing key.
 */
export async function synthForCommand(
  flags: ClusterFlags,
  project: Project,
): Promise<SynthResult | undefined> {
  try {
    const overlay = flags.overlay ?? project.defaultOverlay;
    const [result] = await renderPlatform(project, {
      overlay,
      domain: 'local',
      checks: POST_SYNTH_CHECKS,
      ...(flags.trustRepository ? { trustRepository: true } : {}),
    });
    if (!result) throw new Error(`synth of overlay ${overlay} returned nothing`);
    for (const w of result.warnings) process.stderr.write(`${formatIssue(w)}\n`);
    return result;
  } catch (err) {
    if (!(err instanceof SynthValidationError)) throw err;
    process.stderr.write(
      `${err.issues.map(formatIssue).join('\n')}\nsynth failed: nothing was planned or applied\n`,
    );
    return undefined;
  }
}

/** `result` with its SopsSecrets decrypted in this process, with SOPS_AGE_KEY_FILE (or SOPS_AGE_KEY), in memory. */
export function decryptForCommand(result: SynthResult): Promise<SynthResult> {
  return decryptSopsSecrets(result, (file) => identitiesFromEnv(process.env, file));
}
