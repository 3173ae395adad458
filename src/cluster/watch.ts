import { z } from 'zod';
import { listItemSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import { ApiError } from './api-error.js';
import type { KubeClient } from './client.js';
import { resourcePath, type ResourceInfo } from './discovery.js';
import { parseBody, statusBodySchema } from './response-body.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One line of a watch stream (`metav1.WatchEvent`): an object, a bookmark or a Status. */
export const watchEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['ADDED', 'MODIFIED', 'DELETED']), object: listItemSchema }),
  z.object({
    type: z.literal('BOOKMARK'),
    object: z.looseObject({ metadata: z.looseObject({ resourceVersion: z.string() }) }),
  }),
  z.object({ type: z.literal('ERROR'), object: statusBodySchema }),
]);

const versionOnlySchema = z.looseObject({ metadata: z.looseObject({ resourceVersion: z.string() }) });

interface WatchOptions {
  onEvent: (type: WatchEventType, obj: K8sObject) => void;
  /** Called when the watch had to start over from a fresh list (history expired, 410 Gone): events may have been missed. */
  onResync?: () => void;
  /** Called with connection errors before each retry. */
  onError?: (err: unknown) => void;
  /** Told when a watch stream starts (true) and when it fails (false). */
  onStreaming?: (up: boolean) => void;
  /**
   * The resourceVersion to (re)start from when there is none to resume from: at first, and after
   * the server expired the history. @default the current one (a one-item LIST)
   */
  startVersion?: () => Promise<string>;
  /** Wait before retrying after an error. @default 1000 */
  retryMs?: number;
  /** Watch one namespace only (a namespaced kind). @default every namespace */
  namespace?: string;
  /** Only objects with these labels (a label selector, e.g. `app=x`). @default every object */
  labelSelector?: string;
  signal: AbortSignal;
}

/**
 * Watches every object of one kind, cluster-wide or in `namespace`, until `signal` aborts: starts at the current
 * resourceVersion (a one-item LIST), follows bookmarks, resumes after the server closes the stream,
 * and starts over from a fresh LIST (calling `onResync`) when the server says the history expired.
 */
export async function watchKind(client: KubeClient, info: ResourceInfo, opts: WatchOptions): Promise<void> {
  const path = resourcePath(info, opts.namespace);
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  const currentVersion = async () =>
    (
      await client.request('GET', path, {
        query: { limit: 1, labelSelector: opts.labelSelector },
        signal: opts.signal,
        schema: versionOnlySchema,
      })
    ).metadata.resourceVersion;
  const startVersion = opts.startVersion ?? currentVersion;
  let rv: string | undefined;
  while (!opts.signal.aborted) {
    try {
      rv ??= await startVersion();
      opts.onStreaming?.(true);
      await client.stream(
        path,
        {
          watch: 1,
          resourceVersion: rv,
          allowWatchBookmarks: true,
          timeoutSeconds: 300,
          labelSelector: opts.labelSelector,
        },
        (line) => {
          const event = parseBody(line, watchEventSchema, `WATCH ${path}`);
          if (event.type === 'ERROR') {
            if (event.object.code === 410) throw expiredError(info, JSON.stringify(event.object));
            throw new Error(`watch ${info.kind}: ${JSON.stringify(event.object)}`);
          }
          if (event.object.metadata.resourceVersion) rv = event.object.metadata.resourceVersion;
          if (event.type === 'BOOKMARK') return;
          opts.onEvent(event.type, { ...event.object, apiVersion, kind: info.kind });
        },
        opts.signal,
      );
    } catch (err) {
      opts.onStreaming?.(false);
      if (opts.signal.aborted) return;
      if (rv === undefined || (err instanceof ApiError && err.status === 410)) {
        rv = undefined;
        opts.onResync?.();
      }
      opts.onError?.(err);
      await new Promise((r) => setTimeout(r, opts.retryMs ?? 1000));
    }
  }
}

/** The 410 Gone a watch gets when its resourceVersion is older than the server's history. */
export function expiredError(info: ResourceInfo, text: string): ApiError {
  return new ApiError({
    status: 410,
    method: 'GET',
    path: resourcePath(info),
    body: { kind: 'Status', reason: 'Expired', code: 410, message: text } as never,
    text,
  });
}
