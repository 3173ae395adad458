// What the agent sends a renderer pod (`groundwork renderer`) and what it answers: the bytes the
// agent fetched, and the renderer's end as the local launch reports it (`SupervisedExit`). Both
// sides parse with these schemas; neither trusts the other's paths.
import { z } from 'zod';

/** The largest request body a renderer reads (MiB), unless `groundwork renderer --max-request-mb`. */
export const REMOTE_REQUEST_MAX_MB = 256;

/** The path a renderer serves render requests on. */
export const RENDER_PATH = '/v1/render';

/**
 * A relative POSIX path inside the tree it is written into: no empty, `.` or `..` segment, not
 * absolute, no NUL or backslash, at most 4096 characters. Checked again where it is written
 * (`writeFiles`), which also refuses a link leading outside.
 */
export const relativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.includes('\0') &&
      !p.includes('\\') &&
      p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
    'must be a relative path without . or .. segments',
  );

/** One entry of a tree: a file (base64 bytes, executable or not) or a symbolic link (its target). */
export const treeEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), path: relativePath, exec: z.boolean(), data: z.base64() }),
  z.strictObject({ kind: z.literal('link'), path: relativePath, target: z.string().min(1).max(4096) }),
]);
export type TreeEntry = z.infer<typeof treeEntrySchema>;

/** The most entries a tree (the checkout, or a library's `node_modules`) may hold. */
const ENTRIES_MAX = 200_000;

/**
 * A render request. The renderer writes `tree` into a fresh directory, each library's
 * `node_modules` beside it, each archive into its chart cache (checked against its digest), and
 * renders `dir` of the tree with its own helm and kustomize, under its own isolation.
 */
export const remoteRequestSchema = z.strictObject({
  /** Marks the answer frame as this request's (the agent checks it, `decodeFrame`). */
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** Whose cache the renderer uses (a pull request's render never shares one with the agent's). */
  domain: z.enum(['agent', 'local', 'preview-base', 'preview-head']),
  /** The checkout in the tree: `.` or a relative path. */
  dir: z.union([z.literal('.'), relativePath]),
  overlay: z.union([z.string().min(1).max(253), z.strictObject({ all: z.literal(true) })]),
  /** The commit's tree without `.git`. */
  tree: z.array(treeEntrySchema).max(ENTRIES_MAX),
  /** Each library root's `node_modules` (installed by the agent), in order. */
  libraries: z.array(z.array(treeEntrySchema).max(ENTRIES_MAX)).max(16),
  /** The locked chart archives the agent fetched. */
  archives: z
    .array(z.strictObject({ digest: z.string().regex(/^sha256:[0-9a-f]{64}$/), data: z.base64() }))
    .max(1024),
  unavailableCharts: z
    .array(
      z.strictObject({
        digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
        problem: z.string().max(4096),
        fix: z.string().max(4096).optional(),
      }),
    )
    .max(1024),
  render: z.boolean(),
  limits: z.strictObject({
    timeoutMs: z.number().int().positive().max(3_600_000),
    heapMb: z.number().int().positive().max(65_536),
    rssMb: z.number().int().positive().max(65_536),
    outputCapBytes: z
      .number()
      .int()
      .positive()
      .max(1024 * 1024 * 1024),
  }),
});
export type RemoteRequest = z.infer<typeof remoteRequestSchema>;

/**
 * A renderer's answer: how its render process ended and what it wrote (the frame, base64; the
 * last lines of its log), or why it did not render at all (`refused`: a request it could not take,
 * its machine cannot isolate, it is busy). The agent reads the frame with `settleOutcome`.
 */
export const remoteAnswerSchema = z.union([
  z.strictObject({
    exit: z.strictObject({ code: z.number().int().nullable(), signal: z.string().max(32).nullable() }),
    stopped: z.enum(['timeout', 'result-cap', 'log-cap', 'memory']).optional(),
    frame: z.base64(),
    log: z.string().max(16_384),
    /** Where the renderer wrote the checkout: its messages name paths there. */
    dir: z
      .string()
      .min(2)
      .max(4096)
      .refine((d) => d.startsWith('/') && !d.includes('\0'), 'must be an absolute path'),
  }),
  z.strictObject({ refused: z.string().max(4096) }),
]);
export type RemoteAnswer = z.infer<typeof remoteAnswerSchema>;
