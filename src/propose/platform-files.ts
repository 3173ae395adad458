/** The files of a platform repository `propose` may edit, by repository-relative path. */
export interface PlatformFiles {
  /** The environment's overlay files (`overlays/dev.yaml`). */
  readonly overlays: ReadonlyMap<string, string>;
  /** The platform's TypeScript sources (`platform/main.ts`, `platform/values.ts`). */
  readonly sources: ReadonlyMap<string, string>;
  /** `groundwork-charts.lock.yaml`, when the repository has one. */
  readonly chartLock?: { readonly path: string; readonly text: string };
}
