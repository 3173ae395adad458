import type { K8sObject } from '../core/object.js';
import { ApiError } from './api-error.js';
import type { KubeClient } from './client.js';
import { resourcePath, type ResourceInfo } from './discovery.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchOptions {
  onEvent: (type: WatchEventType, obj: K8sObject) => void;
  /** Called when the watch had to start over from a fresh list (history expired, 410 Gone): events may have been missed. */
  onResync?: () => void;
  /** Called with connection errors before each retry. */
  onError?: (err: unknown) => void;
  signal: AbortSignal;
}

/**
 * Watches every object of one kind cluster-wide until `signal` aborts: starts at the current
 * resourceVersion (a one-item LIST), follows bookmarks, resumes after the server closes the stream,
 * and starts over from a fresh LIST (calling `onResync`) when the server says the history expired.
 */
export async function watchKind(client: KubeClient, info: ResourceInfo, opts: WatchOptions): Promise<void> {
  const path = resourcePath(info);
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  const currentVersion = async () =>
    (
      await client.request<{ metadata: { resourceVersion: string } }>('GET', path, {
        query: { limit: 1 },
        signal: opts.signal,
      })
    ).metadata.resourceVersion;
  let rv: string | undefined;
  while (!opts.signal.aborted) {
    try {
      rv ??= await currentVersion();
      await client.stream(
        path,
        { watch: 1, resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 300 },
        (line) => {
          const event = JSON.parse(line) as { type: string; object: K8sObject & { code?: number } };
          if (event.type === 'ERROR') {
            if (event.object.code === 410) rv = undefined;
            throw new Error(`watch ${info.kind}: ${JSON.stringify(event.object)}`);
          }
          if (event.object.metadata?.resourceVersion) rv = event.object.metadata.resourceVersion;
          if (event.type === 'BOOKMARK') return;
          opts.onEvent(event.type as WatchEventType, { ...event.object, apiVersion, kind: info.kind });
        },
        opts.signal,
      );
    } catch (err) {
      if (opts.signal.aborted) return;
      if (rv === undefined || (err instanceof ApiError && err.status === 410)) {
        rv = undefined;
        opts.onResync?.();
      }
      opts.onError?.(err);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
