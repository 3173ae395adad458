// What the trusted side hands the renderer: one typed value, sent as JSON on the renderer's stdin
// (a remote renderer can receive the same value over another transport).
import { isAbsolute } from 'node:path';
import { z } from 'zod';

const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => isAbsolute(p) && !p.includes('\0'), 'must be an absolute path');

const SHA256 = /^sha256:[0-9a-f]{64}$/;

/** The bounds a render runs under. */
const limitsSchema = z.strictObject({
  /** The platform child is killed after this long (`SynthTimeout`). */
  timeoutMs: z.number().int().positive(),
  /** The platform child's V8 heap cap (`--max-old-space-size`, MiB). */
  heapMb: z.number().int().positive(),
  /** Its resident memory budget (MiB), polled: past it the child is killed (`SynthOutOfMemory`). */
  rssMb: z.number().int().positive(),
  /** The largest result the renderer reads from the platform child (bytes). */
  outputCapBytes: z.number().int().positive(),
});

/**
 * The renderer's input. Every path is one the renderer sees (its checkout, the libraries' and
 * Groundwork's code, the chart archives read-only; `cacheDir` its only writable directory).
 */
export const renderJobSchema = z.strictObject({
  /** Marks the answer frame as this job's (32 hex digits). */
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** The checkout holding groundwork.yaml (a real path). */
  dir: absolutePath,
  /** One overlay, or every overlay. */
  overlay: z.union([z.string().min(1).max(253), z.strictObject({ all: z.literal(true) })]),
  /** Directories whose `node_modules` platform imports resolve from after the checkout's own. */
  libraryRoots: z.array(absolutePath).max(16),
  /** The trust domain's cache (bundles, renders), the renderer's own; none when caching is off. */
  cacheDir: absolutePath.optional(),
  /** The locked chart archives available, by digest: fetched by the trusted side beforehand. */
  archives: z.array(z.strictObject({ digest: z.string().regex(SHA256), path: absolutePath })).max(1024),
  /** Locked charts the trusted side could not fetch, and why (said when the platform uses one). */
  unavailableCharts: z
    .array(
      z.strictObject({
        digest: z.string().regex(SHA256),
        problem: z.string().max(4096),
        fix: z.string().max(4096).optional(),
      }),
    )
    .max(1024),
  /** helm and kustomize, when found; a render that needs a missing one fails with `ToolNotUsable`. */
  tools: z.strictObject({ helm: absolutePath.optional(), kustomize: absolutePath.optional() }),
  /** `false`: return what the platform recorded without rendering it (`groundwork chart lock`). */
  render: z.boolean(),
  limits: limitsSchema,
});

/** The renderer's input (see `renderJobSchema`). */
export type RenderJob = z.infer<typeof renderJobSchema>;

/** The largest job the renderer reads from its stdin. */
export const RENDER_JOB_MAX_BYTES = 1024 * 1024;
