import { z } from 'zod';

/**
 * `unmanaged:` in groundwork.yaml (top level for the whole platform, or on an environment, which
 * then replaces it): whether to report objects Groundwork did not apply in the namespaces it
 * manages, where and what to look at, what never to report, and whether they count as drift.
 * Like Argo CD's `orphanedResources` (`warn`, `ignore`): off without the block, informational
 * with it, drift only with `failOn`.
 */
export interface UnmanagedConfig {
  /**
   * List them (`drift`, the status). `false` turns an inherited setting off (an environment's
   * `unmanaged: { report: false }`). @default true when the block is present, as Argo CD's
   * `orphanedResources: {}` turns monitoring on
   */
  readonly report: boolean;
  /**
   * Count them as drift: `Ready=False DriftDetected`, `drift` exits 1, promotion and `fleet status`
   * block. Implies `report`. @default false
   */
  readonly failOn: boolean;
  /** Where to look. @default the namespaces the platform declares (its Namespace objects) */
  readonly namespaces?: readonly string[];
  /** What to look for (namespaced kinds). @default the kinds the platform has in each namespace */
  readonly kinds?: readonly KindSelector[];
  /** Never reported: an object matching every field of one rule. */
  readonly ignore: readonly UnmanagedIgnore[];
}

/** A kind by API group (empty: the core group) and name, as `group/Kind` or `Kind` is written. */
export interface KindSelector {
  readonly group: string;
  readonly kind: string;
}

/** One ignore rule; an absent field matches anything. `namespace` and `name` may hold `*` wildcards. */
export interface UnmanagedIgnore {
  readonly group?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** The setting of a platform that says nothing: nothing listed, nothing reported. */
export const UNMANAGED_OFF: UnmanagedConfig = { report: false, failOn: false, ignore: [] };

/** Bounds: groundwork.yaml is written by whoever can push. */
export const UNMANAGED_LIMITS = { namespaces: 100, kinds: 50, ignore: 200, pattern: 253 } as const;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GROUP = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const KIND = /^[A-Za-z][A-Za-z0-9]{0,62}$/;
/** Printable ASCII without spaces and `/`: every object name the server accepts, and `*`. */
const PATTERN = /^[!-.0-~]+$/;

const quoted = (v: unknown) => JSON.stringify(String(v).slice(0, 64));

const kindSelector = z.string().transform((text, ctx): KindSelector => {
  const slash = text.lastIndexOf('/');
  const group = slash < 0 ? '' : text.slice(0, slash);
  const kind = text.slice(slash + 1);
  if (KIND.test(kind) && (group === '' || (GROUP.test(group) && !group.includes('/'))) && text.length <= 317)
    return { group, kind };
  ctx.addIssue({
    code: 'custom',
    message: `${quoted(text)} is not a kind: write Kind for the core group (ConfigMap) or group/Kind without a version (coordination.k8s.io/Lease)`,
  });
  return z.NEVER;
});

const pattern = z
  .string()
  .min(1)
  .max(UNMANAGED_LIMITS.pattern)
  .regex(PATTERN, {
    error: (iss) => `${quoted(iss.input)}: printable characters without spaces or "/" (and * as a wildcard)`,
  });

const ignoreRule = z
  .strictObject({
    group: z
      .string()
      .regex(GROUP, 'an API group, e.g. coordination.k8s.io (omit it for any group)')
      .optional()
      .describe('An API group (`coordination.k8s.io`); absent: any group.'),
    kind: z
      .string()
      .regex(KIND, 'a kind, e.g. Secret')
      .optional()
      .describe('A kind (`Secret`); absent: any kind.'),
    namespace: pattern.optional().describe('A namespace; `*` is a wildcard; absent: any namespace.'),
    name: pattern.optional().describe('An object name; `*` is a wildcard; absent: any name.'),
  })
  .refine(
    (r) => Object.keys(r).length > 0,
    'an empty rule would ignore everything: name a group, kind, namespace or name',
  );

/** The `unmanaged:` block as groundwork.yaml holds it, read into an `UnmanagedConfig`. */
export const unmanagedSchema = z
  .strictObject({
    report: z
      .boolean()
      .optional()
      .describe(
        'List them (`drift`, the status). Default: true when the block is present; `false` turns off a setting an environment would inherit.',
      ),
    failOn: z
      .boolean()
      .default(false)
      .describe(
        'Count them as drift: `Ready=False DriftDetected`, `drift` exits 1, promotion and `fleet status` block. Implies `report`.',
      ),
    namespaces: z
      .array(z.string().regex(DNS_LABEL, { error: (iss) => `${quoted(iss.input)} is not a namespace name` }))
      .max(UNMANAGED_LIMITS.namespaces)
      .optional()
      .describe(
        `Where to look, at most ${UNMANAGED_LIMITS.namespaces}. Default: the namespaces the platform declares (its Namespace objects).`,
      ),
    kinds: z
      .array(kindSelector)
      .max(UNMANAGED_LIMITS.kinds)
      .optional()
      .describe(
        `What to look for: namespaced kinds as \`Kind\` (core group) or \`group/Kind\`, at most ${UNMANAGED_LIMITS.kinds}. Default: the kinds the platform has in each namespace.`,
      ),
    ignore: z
      .array(ignoreRule)
      .max(UNMANAGED_LIMITS.ignore)
      .default([])
      .describe(
        `Never reported: an object matching every field of one rule (at most ${UNMANAGED_LIMITS.ignore} rules; a rule names at least one field).`,
      ),
  })
  .superRefine((u, ctx) => {
    if (u.failOn && u.report === false)
      ctx.addIssue({
        code: 'custom',
        path: ['report'],
        message: 'failOn: true reports them: drop report: false',
      });
  })
  .transform((u): UnmanagedConfig => ({
    report: u.report ?? true,
    failOn: u.failOn,
    ...(u.namespaces ? { namespaces: [...new Set(u.namespaces)] } : {}),
    ...(u.kinds ? { kinds: u.kinds } : {}),
    ignore: u.ignore,
  }));

/**
 * The setting that holds for `overlay`: its environment's `unmanaged:` when that says one, else the
 * platform's, else `UNMANAGED_OFF`.
 */
export function unmanagedFor(
  config: {
    unmanaged?: UnmanagedConfig;
    environments?: readonly { overlays: readonly string[]; unmanaged?: UnmanagedConfig }[];
  },
  overlay: string,
): UnmanagedConfig {
  const env = config.environments?.find((e) => e.overlays.includes(overlay));
  return env?.unmanaged ?? config.unmanaged ?? UNMANAGED_OFF;
}
