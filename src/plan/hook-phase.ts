// Which of a chart's hooks run in this apply: helm's install and upgrade phases, where git is the history.
import { hookWeightOf } from '../core/annotations.js';
import type { ObjectId } from '../core/object-id.js';
import type { PlanItem } from './types.js';

/** helm's hook annotation, as the chart wrote it (kept on the desired object by placeRendered). */
export const HELM_HOOK = 'helm.sh/hook';

/** Where one chart's release stands in this apply. */
export interface ReleaseState {
  /** Any non-hook object of the chart is live or in the inventory (helm: a release exists). */
  installed: boolean;
  /**
   * A non-hook object of the chart is created, updated or adopted in this apply, or a live hook of
   * it is updated or adopted (its rendered content changed): helm would upgrade the release.
   */
  changed: boolean;
}

/**
 * Whether a hook with `phases` (the values of `helm.sh/hook`) runs, as helm runs it: on the first
 * install only `pre-install`/`post-install` hooks; on an installed release only
 * `pre-upgrade`/`post-upgrade` hooks, and only when the release changes (an upgrade). A hook with
 * none of the four never runs here (placeRendered drops test, delete and rollback hooks). Pure.
 */
export function hookRuns(phases: readonly string[], release: ReleaseState): boolean {
  const has = (p: string) => phases.includes(p);
  if (!release.installed) return has('pre-install') || has('post-install');
  return release.changed && (has('pre-upgrade') || has('post-upgrade'));
}

/** The values of an object's `helm.sh/hook`, or undefined when it carries none. */
export function helmHookPhases(
  annotations: Readonly<Record<string, string>> | undefined,
): string[] | undefined {
  const raw = annotations?.[HELM_HOOK];
  if (raw === undefined) return undefined;
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

const WRITES = new Set(['create', 'update', 'adopt']);

/**
 * The plan's items with the writes of a chart's hooks that helm would not run in this apply turned
 * into `skip` (`HookPhase`): an upgrade-only hook on the first install or on an apply that changes
 * nothing else of the chart, an install-only hook once the chart is installed. A chart is the
 * items of one `source` (the HelmChart construct's path); its hooks are the items whose desired
 * object carries both `helm.sh/hook` and `groundwork.io/hook-weight`; the chart changed when another
 * object of it is written or a live hook of it changes. Items that write nothing
 * (`unchanged`, `skip`, `prune`) and items with a problem are left as they are. Pure.
 */
export function gateHooks(
  items: readonly PlanItem[],
  observed: { live: ReadonlyMap<ObjectId, unknown>; inventory: ReadonlySet<ObjectId> | undefined },
): PlanItem[] {
  const releases = new Map<string, ReleaseState>();
  for (const item of items) {
    if (!item.desired || item.source === undefined) continue;
    const state = releases.get(item.source) ?? { installed: false, changed: false };
    if (isHook(item)) {
      // A live hook whose rendered content changed: the chart changed (a hook not live is no sign).
      state.changed ||= item.action === 'update' || item.action === 'adopt';
    } else {
      state.installed ||= observed.live.has(item.id) || (observed.inventory?.has(item.id) ?? false);
      state.changed ||= WRITES.has(item.action);
    }
    releases.set(item.source, state);
  }
  return items.map((item) => {
    const phases =
      item.desired && isHook(item) ? helmHookPhases(item.desired.metadata.annotations) : undefined;
    if (!phases || item.problem || !WRITES.has(item.action) || item.source === undefined) return item;
    const release = releases.get(item.source) ?? { installed: false, changed: false };
    if (hookRuns(phases, release)) return item;
    const { reason: _reason, problem: _problem, ...rest } = item;
    return {
      ...rest,
      action: 'skip',
      reason: 'HookPhase',
      message: `helm.sh/hook: ${phases.join(',')}: ${whyNot(phases, release)}`,
    };
  });
}

function whyNot(phases: readonly string[], release: ReleaseState): string {
  if (!release.installed) return 'runs on an upgrade, not on the first install of the chart';
  if (!phases.includes('pre-upgrade') && !phases.includes('post-upgrade'))
    return 'runs only on the first install of the chart';
  return 'runs on an upgrade, and nothing else of the chart changes in this apply';
}

function isHook(item: PlanItem): boolean {
  return (
    item.desired !== undefined &&
    hookWeightOf(item.desired) !== undefined &&
    item.desired.metadata.annotations?.[HELM_HOOK] !== undefined
  );
}
