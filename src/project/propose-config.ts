import semver from 'semver';
import { z } from 'zod';

/**
 * `propose:` in groundwork.yaml: which newer versions `groundwork propose` proposes, per kind of
 * pin (operators, the cluster version, charts) and per environment. Absent: every kind proposes
 * patch updates only (`PROPOSE_DEFAULTS`), the choice a platform team takes for granted (z-streams
 * and fix releases arrive on their own; a minor or a channel move is asked for).
 */
export interface ProposeConfig {
  readonly operators: KindPolicy;
  readonly clusterVersion: KindPolicy;
  readonly charts: KindPolicy;
  /** Per environment (by name): fields that replace the platform-wide ones for that environment. */
  readonly environments: Readonly<Record<string, Partial<Record<ProposeKindKey, Partial<KindPolicy>>>>>;
}

/** The kinds as groundwork.yaml spells them. */
export type ProposeKindKey = 'operators' | 'clusterVersion' | 'charts';

/**
 * How far a pin may move: `none` (never proposed), `patch` (same major.minor), `minor` (same major;
 * for OpenShift the next minor, with its channel), `channel` (operators: the newest the pinned
 * channel reaches; OpenShift: the newest release of the current channel), `major` (charts: any newer).
 */
export type UpdateLevel = 'none' | 'patch' | 'minor' | 'channel' | 'major';

export interface KindPolicy {
  readonly update: UpdateLevel;
  /** A release younger than this is not proposed (ms); 0: no minimum. */
  readonly minimumAgeMs: number;
  /** As written (`7d`). */
  readonly minimumAge: string;
  /** `<subject>` (never propose it) or `<subject>@<semver range>` (never propose those versions). */
  readonly ignore: readonly IgnoreRule[];
}

export interface IgnoreRule {
  /** A package, a chart name, or `openshift`. */
  readonly subject: string;
  /** Absent: every version. */
  readonly range?: string;
}

/** What a platform without `propose:` gets. */
export const PROPOSE_DEFAULTS: KindPolicy = {
  update: 'patch',
  minimumAgeMs: 0,
  minimumAge: '0s',
  ignore: [],
};

/** Bounds: groundwork.yaml is written by whoever can push. */
export const PROPOSE_LIMITS = { ignore: 200, environments: 50, rule: 300 } as const;

/** `7d`, `36h`, `90m`, `0s` (one unit) → milliseconds; NaN when not a duration. */
export function ageMs(text: string): number {
  const m = /^(\d{1,6})(d|h|m|s)$/.exec(text);
  if (!m) return NaN;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'd' | 'h' | 'm' | 's'];
  return Number(m[1]) * unit;
}

const SUBJECT = /^[a-z0-9]([-a-z0-9._]{0,251}[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;

const ignoreRule = z
  .string()
  .max(PROPOSE_LIMITS.rule)
  .transform((text, ctx): IgnoreRule => {
    const at = text.indexOf('@');
    const subject = at < 0 ? text : text.slice(0, at);
    const range = at < 0 ? undefined : text.slice(at + 1);
    if (!SUBJECT.test(subject))
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(subject.slice(0, 64))} is not a package, chart name or openshift`,
      });
    if (range !== undefined && semver.validRange(range) === null)
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(range.slice(0, 64))} is not a semver range`,
      });
    return range === undefined ? { subject } : { subject, range };
  })
  .describe('`<subject>` or `<subject>@<semver range>`');

function kindSchema(levels: readonly [UpdateLevel, ...UpdateLevel[]], what: string) {
  return z.strictObject({
    update: z.enum(levels).optional().describe(`How far a pin may move: ${what} Default: \`patch\`.`),
    minimumAge: z
      .string()
      .refine((s) => !Number.isNaN(ageMs(s)), 'must be a duration with one unit: 7d, 36h, 90m or 0s')
      .optional()
      .describe(
        'A release younger than this is not proposed (`7d`, `36h`, `0s`). A source that gives no release date (OLM catalogs, update graphs, OCI tags) cannot show the age: its candidates are refused while this is above 0. Default: `0s`.',
      ),
    ignore: z
      .array(ignoreRule)
      .max(PROPOSE_LIMITS.ignore)
      .optional()
      .describe(
        `Never proposed: \`<subject>\` (a package, a chart name, or \`openshift\`) or \`<subject>@<semver range>\` (\`cert-manager@>=1.15.0\`), at most ${PROPOSE_LIMITS.ignore}. Default: none.`,
      ),
  });
}

const operators = kindSchema(
  ['none', 'patch', 'minor', 'channel'],
  '`patch` keeps major.minor, `minor` keeps the major, `channel` follows the pinned channel to its head, `none` proposes nothing.',
);
const clusterVersion = kindSchema(
  ['none', 'patch', 'minor', 'channel'],
  '`patch` is a newer z-stream, `minor` may move to the next minor and its channel, `channel` is the newest release of the current channel, `none` proposes nothing.',
);
const charts = kindSchema(
  ['none', 'patch', 'minor', 'major'],
  '`patch` keeps major.minor, `minor` keeps the major, `major` takes any newer version (charts have no channels), `none` proposes nothing.',
);

const overrides = z
  .strictObject({
    operators: operators.optional(),
    clusterVersion: clusterVersion.optional(),
    charts: charts.optional(),
  })
  .describe('Replaces the platform-wide fields for this environment.');

/** The `propose:` block. Each field's `.describe()` is its entry in docs/groundwork-yaml.md. */
export const proposeSchema = z
  .strictObject({
    operators: operators.optional().describe('Operator pins. Default: `update: patch`.'),
    clusterVersion: clusterVersion
      .optional()
      .describe('The OpenShift version target. Default: `update: patch`.'),
    charts: charts.optional().describe('Helm chart versions. Default: `update: patch`.'),
    environments: z
      .record(z.string().regex(DNS_LABEL, 'must be the name of an environment'), overrides)
      .refine((r) => Object.keys(r).length <= PROPOSE_LIMITS.environments, {
        message: `at most ${PROPOSE_LIMITS.environments} environments`,
      })
      .optional()
      .describe(
        'Per environment (by name, one of `environments:`): fields that replace the platform-wide ones.',
      ),
  })
  .transform((p): ProposeConfig => ({
    operators: policyOf(p.operators),
    clusterVersion: policyOf(p.clusterVersion),
    charts: policyOf(p.charts),
    environments: p.environments ?? {},
  }));

/** `propose:` as written (its optional fields) → a whole policy, defaults filled in. */
export function policyOf(
  p: Partial<Omit<KindPolicy, 'minimumAgeMs'>> | undefined,
  base = PROPOSE_DEFAULTS,
): KindPolicy {
  const minimumAge = p?.minimumAge ?? base.minimumAge;
  return {
    update: p?.update ?? base.update,
    minimumAge,
    minimumAgeMs: ageMs(minimumAge),
    ignore: p?.ignore ?? base.ignore,
  };
}

/** The policy of `kind` in `environment`: its override's fields over the platform-wide ones. */
export function kindPolicy(config: ProposeConfig, kind: ProposeKindKey, environment: string): KindPolicy {
  const over = config.environments[environment]?.[kind];
  return over ? policyOf(over, config[kind]) : config[kind];
}

/** The configuration of a platform that says nothing. */
export const PROPOSE_DEFAULT_CONFIG: ProposeConfig = {
  operators: PROPOSE_DEFAULTS,
  clusterVersion: PROPOSE_DEFAULTS,
  charts: PROPOSE_DEFAULTS,
  environments: {},
};
