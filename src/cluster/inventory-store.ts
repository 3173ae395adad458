import {
  INVENTORY_LABEL,
  INVENTORY_NAMESPACE,
  inventoryData,
  inventoryName,
  inventoryOwner,
  parseInventoryData,
  type Inventory,
} from '../apply/inventory.js';
import { GroundworkError } from '../core/errors.js';
import { FIELD_MANAGER } from '../plan/plan.js';
import { isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';
import { dataObjectSchema } from './response-body.js';

interface InventoryStoreOptions {
  /** @default INVENTORY_NAMESPACE */
  namespace?: string;
  /** Told about entries a read dropped (not valid object ids). @default a `warning:` line on stderr */
  onWarning?: (message: string) => void;
}

/** Reading and writing the inventory ConfigMap (format in src/apply/inventory.ts). */
export class InventoryStore {
  private readonly namespace: string;
  private readonly onWarning: (message: string) => void;

  constructor(
    private readonly client: KubeClient,
    opts: InventoryStoreOptions = {},
  ) {
    this.namespace = opts.namespace ?? INVENTORY_NAMESPACE;
    this.onWarning = opts.onWarning ?? ((m) => process.stderr.write(`warning: ${m}\n`));
  }

  /** The identity objects of this inventory carry in `groundwork.io/owning-inventory`. */
  owner(platform: string, overlay: string): string {
    return inventoryOwner(this.namespace, platform, overlay);
  }

  private path(platform: string, overlay: string): string {
    return `/api/v1/namespaces/${this.namespace}/configmaps/${inventoryName(platform, overlay)}`;
  }

  /**
   * The stored inventory, or undefined when none exists yet. Any other failure throws (never
   * "empty"). Entries that are not valid object ids are dropped with a warning (quoted, shortened,
   * at most three named), never a failure: the next write leaves them out.
   */
  async read(platform: string, overlay: string): Promise<Inventory | undefined> {
    let inventory: Inventory;
    try {
      const cm = await this.client.request('GET', this.path(platform, overlay), { schema: dataObjectSchema });
      inventory = parseInventoryData(cm.data ?? undefined);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new GroundworkError({
        code: 'InventoryReadFailed',
        subject: `inventory ${platform}/${overlay}`,
        message: err instanceof Error ? err.message : String(err),
        cause: err,
      });
    }
    const dropped = inventory.dropped ?? [];
    if (dropped.length > 0) {
      const shown = dropped.slice(0, 3).map((d) => JSON.stringify(d.length > 80 ? `${d.slice(0, 80)}…` : d));
      this.onWarning(
        `inventory ${this.owner(platform, overlay)}: ignored ${dropped.length} entr${dropped.length === 1 ? 'y' : 'ies'} that ${dropped.length === 1 ? 'is not a valid object id' : 'are not valid object ids'} (${shown.join(', ')}${dropped.length > 3 ? ', …' : ''}); the next apply rewrites the inventory without them`,
      );
    }
    return inventory;
  }

  /** Writes the inventory (server-side apply; creates the namespace on first use). No request when `unchanged`. */
  async write(inv: Inventory): Promise<void> {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: inventoryName(inv.platform, inv.overlay),
        namespace: this.namespace,
        labels: { [INVENTORY_LABEL]: 'true', 'app.kubernetes.io/managed-by': 'groundwork' },
      },
      data: inventoryData(inv),
    };
    const apply = () =>
      this.client.request('PATCH', this.path(inv.platform, inv.overlay), {
        body,
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: FIELD_MANAGER, force: true },
      });
    try {
      await apply();
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.request('PATCH', `/api/v1/namespaces/${this.namespace}`, {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } },
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: FIELD_MANAGER },
      });
      await apply();
    }
  }
}
