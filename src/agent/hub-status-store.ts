import type { KubeClient } from '../cluster/client.js';
import { SyncStatusStore, type PlatformSyncSpec } from '../cluster/sync-status-store.js';
import type { SyncStatus } from '../report/sync-status.js';
import type { HubLink } from './hub-link.js';

/**
 * The PlatformSync status store of an agent started with `--hub`: after each status write (written,
 * unchanged or failed) the status goes on to the hub link, which reports it (debounced) to the
 * member's FleetMember. The write itself is the plain store's; the hub never delays or fails it.
 */
export class HubReportingStatusStore extends SyncStatusStore {
  constructor(
    client: KubeClient,
    opts: ConstructorParameters<typeof SyncStatusStore>[1],
    private readonly link: HubLink,
  ) {
    super(client, opts);
  }

  override async write(
    name: string,
    spec: PlatformSyncSpec,
    status: SyncStatus,
  ): Promise<'unchanged' | 'updated'> {
    try {
      return await super.write(name, spec, status);
    } finally {
      this.link.written(name, spec, status.toJSON());
    }
  }
}
