import type { ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { PlatformData } from '../reconcile/domains.js';
import type { VerifiedObject } from '../source/trust/verify-fetched.js';
import type { NotifyEvent } from '../report/notifications/types.js';
import type { Project } from '../project/project.js';

/** A fetched revision of the platform repository. */
export interface Checkout {
  /** Frozen format `<branch>@sha1:<hex>`. */
  revision: string;
  /** Directory holding groundwork.yaml. */
  dir: string;
  /** The signature check of the fetched commit or tag, when the agent has trusted keys. */
  signature?: VerifiedObject;
  /** The commit's message and author name (`FetchedRevision.commitInfo`), for the status. */
  commitInfo?: { message: string; author: string };
  /** The agent itself requires verification (`--verify-commits`): `fetch` has already refused what failed it. */
  verifyRequired?: boolean;
}

/**
 * The I/O the agent loop drives, as small interfaces: the real ones come from src/source,
 * src/render, src/cluster and src/report; tests and the quick start pass the same real parts.
 */
export interface AgentPorts {
  /** Fetches the configured ref; throws on failure (never returns a stale checkout). */
  fetch(signal: AbortSignal): Promise<Checkout>;
  /**
   * Takes up a checkout's project before anything else reads it: the agent's notifications take
   * its platform name, its overlay's environment and that environment's alert targets. Called for
   * every fetched checkout whose groundwork.yaml reads (the same value while the revision stays);
   * never throws (a bad alert setting is logged, and read again next time).
   */
  useProject?(project: Project): Promise<void>;
  /** Synthesizes one overlay of a checkout's project in a child process. */
  synth(project: Project, overlay: string): Promise<SynthResult>;
  /** Catalogs and graphs a project lists (`loadPlatformData`). */
  platformData(project: Project): Promise<PlatformData>;
  /** Records an Event on an object (deduplicated by the recorder). */
  event(
    regarding: K8sObject | ObjectRef,
    e: { type: 'Normal' | 'Warning'; reason: string; note: string; action: string },
  ): Promise<void>;
  /** Tells the forge and alert targets (report/notifications); returns at once, never throws. */
  notify?(event: NotifyEvent): void;
}
