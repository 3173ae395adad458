import type { ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';

/**
 * What git says about the managed objects: the desired objects of one revision, as the agent
 * synthesized (and decrypted) them, **with every Secret value already replaced by its keyed hash**
 * (`redactDesired`): an implementation never hands a page a Secret's value. The agent implements it
 * over the revision it last applied (`agentDesired` in src/agent); `groundwork ui` on a laptop has
 * none (no agent memory) and says so on the page. Objects are shared, never copied per request:
 * callers must not modify them.
 */
export interface DesiredObjects {
  /** The revision these objects are of (`<branch>@sha1:<hex>`). */
  readonly revision: string;
  /** The desired object with this id, redacted; undefined when the revision does not declare it. */
  get(id: ObjectId): K8sObject | undefined;
}

/**
 * Where the dashboard gets the desired objects: the agent's last applied revision, or undefined
 * while there is none (before the first apply, or outside the agent).
 */
export type DesiredSource = () => DesiredObjects | undefined;
