import type { PlatformSyncSpec } from '../cluster/sync-status-store.js';
import type { ObjectId, ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { StageName } from '../core/stages.js';
import type { HealthVerdict } from '../health/types.js';
import type { FieldDiff } from '../plan/field-diff.js';
import type { SyncStatusJson } from '../report/sync-status-schema.js';
import type { FleetState } from './fleet-state.js';

/** One managed object as the Objects page lists it: where it is applied and how it is. */
export interface ObjectRow {
  id: ObjectId;
  ref: ObjectRef;
  stage: StageName;
  health: HealthVerdict;
  /** The drift the agent last reported for it (`status.drift.items`), when any. */
  drift?: { type: 'missing' | 'modified' | 'extra'; fields: readonly string[] };
}

/** The PlatformSync the dashboard shows: its spec and its status (undefined while none is written). */
export interface SyncView {
  name: string;
  namespace: string;
  spec: PlatformSyncSpec;
  status: SyncStatusJson | undefined;
  /** Why the status could not be read (`InvalidSyncStatus`), when it could not. */
  statusProblem?: string;
}

/** The OpenShift page's data: each part undefined when the cluster does not serve its kind. */
export interface OpenShiftView {
  clusterVersion?: K8sObject;
  clusterOperators?: readonly K8sObject[];
  pools?: readonly K8sObject[];
  subscriptions?: readonly K8sObject[];
  csvs?: readonly K8sObject[];
  installPlans?: readonly K8sObject[];
}

/**
 * Everything a page renders, read from the watch-fed caches at one moment: plain data, no
 * client, so that every page is a pure function of it (and tests build it by hand).
 */
export interface DashboardSnapshot {
  /** When it was read (rendered as "as of"). */
  at: Date;
  /** Every PlatformSync the reader may see, and the one shown (`selected`, an index into it). */
  syncs: readonly SyncView[];
  selected: number | undefined;
  /** The platform and revision of the inventory that goes with the selected sync. */
  inventory?: { platform: string; overlay: string; revision: string };
  objects: readonly ObjectRow[];
  /** The drift the agent last reported, with live values and field managers. */
  drift: readonly DriftRow[];
  openshift: OpenShiftView;
  /** Problems reading the cluster (a kind not served, a watch down), shown as a banner. */
  problems: readonly string[];
  /** The fleet (`groundwork ui` on a laptop); absent in the agent's dashboard, which has no Fleet page. */
  fleet?: FleetState;
  /** The revision of the desired objects the pages compare with (the agent's memory); absent outside the agent. */
  desiredRevision?: string;
  /** What this reader may not see (`visibleSnapshot`, the agent's dashboard); absent: nothing hidden. */
  hidden?: HiddenCounts;
  /**
   * The server's count of changes told to live pages when this one was rendered (`dashboardHandler`):
   * the page's script compares it with its stream's, to catch a change told before it subscribed.
   */
  changes?: number;
}

/**
 * What was left out for one reader, as counts and kinds only: never a name. The agent's dashboard
 * authorizes every object for its reader (`visibleSnapshot`); `groundwork ui` reads with the user's
 * own credentials and hides nothing itself.
 */
export interface HiddenCounts {
  /** Managed objects the reader may not `get` (rows, counts, values and git's side all left out). */
  objects: number;
  /** Drift report items about objects the reader may not `get`. */
  drift: number;
  /** OpenShift page kinds with objects the reader may not `list` (e.g. `ClusterOperator`). */
  openshift: readonly string[];
  /** Permission checks that could not be made (a review failed, or too many for one request): what they cover is hidden. */
  unchecked: number;
}

/** An Event about one object, as the object page lists it (the note already redacted). */
export interface EventRow {
  /** The Event's own namespace (where a reader needs `list events` to see it). */
  namespace: string;
  type: string;
  reason: string;
  note: string;
  count: number;
  last: string;
  source: string;
}

/** What an object page shows besides its row: the live object (redacted) and its Events. */
export interface ObjectDetail {
  row: ObjectRow;
  /** The live object with Secret values replaced by keyed hashes (`redactSecret`). */
  live: K8sObject | undefined;
  events: readonly EventRow[];
  /** Events about the object that the reader may not list (`visibleDetail`); absent: none hidden. */
  hiddenEvents?: number;
  /** What git says (`desiredDetail`); absent when no desired objects are known (`groundwork ui` outside the agent). */
  desired?: DesiredDetail;
}

/** The desired object of a revision, Secret values as keyed hashes, and its diff with the live object. */
export interface DesiredDetail {
  revision: string;
  /** Undefined when that revision does not declare the object (it leaves git: prune). */
  object: K8sObject | undefined;
  /** `desiredDiff` (the fields git sets) from the live object to `object`; empty when either is missing. */
  diff: readonly FieldDiff[];
}

/** One drifted field as the Drift page shows it: the live value (redacted, shortened) and who wrote it. */
export interface DriftFieldRow {
  path: string;
  /** The live value as JSON, Secret data redacted, at most `VALUE_LIMIT` characters; undefined when absent. */
  live: string | undefined;
  /** Git's value as `live` is shown; undefined when git does not set it or no desired objects are known. */
  git?: string;
  /** Field managers owning the live value (e.g. `kubectl-edit`), most specific first. */
  managers: readonly string[];
}

/** A drifted object, from the agent's last drift report (`status.drift.items`). */
export interface DriftRow {
  object: string;
  /** Its id when the inventory lists it (for a link to the object page). */
  id: string | undefined;
  type: 'missing' | 'modified' | 'extra';
  fields: readonly DriftFieldRow[];
}
