import {
  INVENTORY_LABEL,
  INVENTORY_NAMESPACE,
  inventoryData,
  inventoryName,
  parseInventoryData,
  type Inventory,
} from '../apply/inventory.js';
import { GroundworkError } from '../core/errors.js';
import type { K8sObject } from '../core/object.js';
import { FIELD_MANAGER } from '../plan/plan.js';
import { isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';

/** Reading and writing the inventory ConfigMap (format in src/apply/inventory.ts). */
export class InventoryStore {
  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string = INVENTORY_NAMESPACE,
  ) {}

  private path(platform: string, overlay: string): string {
    return `/api/v1/namespaces/${this.namespace}/configmaps/${inventoryName(platform, overlay)}`;
  }

  /** The stored inventory, or undefined when none exists yet. Any other failure throws (never "empty"). */
  async read(platform: string, overlay: string): Promise<Inventory | undefined> {
    try {
      const cm = await this.client.request<K8sObject & { data?: Record<string, string> }>(
        'GET',
        this.path(platform, overlay),
      );
      return parseInventoryData(cm.data);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new GroundworkError({
        code: 'InventoryReadFailed',
        subject: `inventory ${platform}/${overlay}`,
        message: err instanceof Error ? err.message : String(err),
        cause: err,
      });
    }
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
