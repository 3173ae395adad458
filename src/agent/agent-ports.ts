import type { ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { PlatformData } from '../reconcile/domains.js';
import type { VerifiedObject } from '../source/trust/verify-fetched.js';
import type { NotifyEvent } from '../report/notifications/types.js';

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
  /** Synthesizes one overlay of a checkout in a child process. */
  synth(dir: string, overlay: string): Promise<SynthResult>;
  /** Catalogs and graphs of a checkout (groundwork.yaml). */
  platformData(dir: string): Promise<PlatformData>;
  /**
   * The platform's name from a checkout's groundwork.yaml, read without synthesizing, so that the
   * status object has its final name even when the first revision does not synthesize.
   */
  platformName?(dir: string): Promise<string>;
  /** Whether a checkout's groundwork.yaml asks for verified revisions for `overlay` (its environment's `verify`). */
  verifyRequested?(dir: string, overlay: string): Promise<boolean>;
  /** Records an Event on an object (deduplicated by the recorder). */
  event(
    regarding: K8sObject | ObjectRef,
    e: { type: 'Normal' | 'Warning'; reason: string; note: string; action: string },
  ): Promise<void>;
  /** Tells the forge and alert targets (report/notifications); returns at once, never throws. */
  notify?(event: NotifyEvent): void;
}
