import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Root of Groundwork's cache, outside any repository:
 * `$GROUNDWORK_CACHE_DIR`, else `$XDG_CACHE_HOME/groundwork`, else `~/.cache/groundwork`.
 * Shared by the control-plane binaries, local clusters and the synth bundle cache.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GROUNDWORK_CACHE_DIR) return env.GROUNDWORK_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'groundwork');
}
