import { z } from 'zod';
import { decodeDataUrl } from './data-url.js';
import { addProblem, refineWith } from './issues.js';
import type { IgnitionVersion } from './openshift-support.js';
import {
  dropinNameProblem,
  filePathProblem,
  unitContentsProblem,
  unitNameProblem,
  type Problem,
} from './rules.js';

/**
 * The `ignition` escape hatch of a MachineConfig: raw Ignition 3.x merged into the rendered config.
 * It is held to the same rules as the friendly props, plus what the MCO cannot reconcile on a
 * running node (`isConfigReconcilable` in openshift/machine-config-operator): directories, links,
 * appends, groups, users other than `core`, disks, RAID, filesystems, LUKS and Ignition's own
 * kernel arguments. Empty lists of those are accepted. Unknown fields inside files and units are
 * kept as they are.
 */
export function rawIgnitionSchema(version: IgnitionVersion) {
  return z.unknown().superRefine((value, ctx) => {
    const json = plainJsonProblem(value, []);
    if (json) return addProblem(ctx, json.problem, json.path);
    const parsed = sectionsSchema(version).safeParse(value);
    for (const issue of parsed.success ? [] : parsed.error.issues)
      ctx.addIssue({ ...issue, path: [...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
  });
}

const dataSource = z.string().superRefine(
  refineWith((s: string): Problem | undefined => {
    if (!s.startsWith('data:'))
      return {
        message: `source ${JSON.stringify(s.slice(0, 60))} is not a data: URL; the MCO never fetches remote content`,
        fix: 'inline the content as a data: URL, or use the friendly files prop',
      };
    if (!decodeDataUrl(s))
      return {
        message: 'source is not a decodable data: URL (bad base64, bad % escape or non-ASCII data)',
        fix: 'percent-encode the text, or use data:;base64,',
      };
    return undefined;
  }),
);

function unsupported(message: string, fix: string) {
  return z
    .unknown()
    .optional()
    .superRefine(refineWith((v: unknown) => (isEmpty(v) ? undefined : { message, fix })));
}

/** Absent, `[]`, or an object of empty values (`kernelArguments: { shouldExist: [] }`). */
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.values(v).every(isEmpty);
}

const INSTALL_TIME = 'partitioning belongs in the installer (Butane/install-config), not in a MachineConfig';

const file = z
  .object({
    path: z.string().superRefine(refineWith(filePathProblem)),
    mode: z
      .number()
      .int()
      .min(0)
      .max(0o777, {
        error: 'Ignition modes are decimal integers from 0 to 511 (0o777); the MCO rejects larger modes',
      })
      .optional(),
    contents: z
      .object({ source: dataSource.optional(), compression: z.enum(['', 'gzip']).optional() })
      .loose()
      .optional(),
    append: unsupported(
      'file append is not supported: the MCO cannot apply it idempotently',
      'write the whole file with contents',
    ),
  })
  .loose();

const unitContents = z.string().superRefine(refineWith(unitContentsProblem));

const unit = z
  .object({
    name: z.string().superRefine(refineWith(unitNameProblem)),
    contents: unitContents.optional(),
    dropins: z
      .array(
        z
          .object({
            name: z.string().superRefine(refineWith(dropinNameProblem)),
            contents: unitContents.optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();

const CORE_USER_KEYS = new Set(['name', 'sshAuthorizedKeys', 'passwordHash']);
const user = z
  .object({ name: z.string() })
  .loose()
  .superRefine((u, ctx) => {
    if (u.name !== 'core')
      return addProblem(
        ctx,
        {
          message: `user ${JSON.stringify(u.name)} is not supported: the MCO only manages the core user`,
          fix: 'create other users with a systemd unit or at install time',
        },
        ['name'],
      );
    const extra = Object.keys(u).filter((k) => !CORE_USER_KEYS.has(k));
    if (extra.length)
      addProblem(ctx, {
        message: `the MCO only manages sshAuthorizedKeys and passwordHash of the core user, not ${extra.join(', ')}`,
        fix: `remove ${extra.join(', ')}`,
      });
  });

function sectionsSchema(version: IgnitionVersion) {
  return z.strictObject(
    {
      ignition: z
        .object({
          version: z
            .string()
            .refine((v) => v === version, {
              error: `must be ${version}, the version Groundwork renders for this OpenShift minor`,
              params: { fix: 'remove ignition.version; Groundwork sets it' },
            })
            .optional(),
          config: z
            .object({
              merge: unsupported(
                'Ignition merge is not supported: the MCO merges MachineConfigs itself',
                'declare a second MachineConfig instead',
              ),
              replace: unsupported(
                'Ignition replace is not supported: the MCO merges MachineConfigs itself',
                'declare the content directly',
              ),
            })
            .loose()
            .optional(),
          security: z
            .object({
              tls: z
                .object({
                  certificateAuthorities: z.array(z.object({ source: dataSource }).loose()).optional(),
                })
                .loose()
                .optional(),
            })
            .loose()
            .optional(),
        })
        .loose()
        .optional(),
      storage: z
        .strictObject({
          files: z.array(file).optional(),
          directories: unsupported(
            'storage.directories is not supported by the MCO',
            'writing a file creates its directories; for an empty one add an /etc/tmpfiles.d drop-in',
          ),
          links: unsupported(
            'storage.links is not supported by the MCO',
            'create the link with an /etc/tmpfiles.d "L" line',
          ),
          disks: unsupported('storage.disks cannot change on a running node', INSTALL_TIME),
          raid: unsupported('storage.raid cannot change on a running node', INSTALL_TIME),
          filesystems: unsupported('storage.filesystems cannot change on a running node', INSTALL_TIME),
          luks: unsupported('storage.luks cannot change on a running node', INSTALL_TIME),
        })
        .optional(),
      systemd: z.strictObject({ units: z.array(unit).optional() }).optional(),
      passwd: z
        .strictObject({
          users: z.array(user).optional(),
          groups: unsupported(
            'passwd.groups is not supported by the MCO',
            'create groups with a systemd unit or at install time',
          ),
        })
        .optional(),
      kernelArguments: unsupported(
        "Ignition's kernelArguments are not applied by the MCO",
        'use the kernelArguments prop (spec.kernelArguments)',
      ),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `not an Ignition ${version} section: ${iss.keys.join(', ')}`
          : undefined,
    },
  );
}

/** The first value that is not plain JSON (class instances, functions, bigints, NaN, cycles), with its path. */
function plainJsonProblem(
  value: unknown,
  path: PropertyKey[],
  seen = new Set<unknown>(),
): { path: PropertyKey[]; problem: Problem } | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value)
      ? undefined
      : { path, problem: { message: `${value} is not a JSON number` } };
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (typeof value !== 'object' || !(Array.isArray(value) || proto === Object.prototype || proto === null)) {
    return {
      path,
      problem: {
        message: `must be plain JSON, not ${typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value}`,
        fix: 'write JSON values: objects, arrays, strings, numbers, booleans',
      },
    };
  }
  if (path.length === 0 && Array.isArray(value))
    return { path, problem: { message: 'must be an Ignition config object, not an array' } };
  if (seen.has(value)) return { path, problem: { message: 'must not contain a cycle' } };
  seen.add(value);
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const found = plainJsonProblem(v, [...path, Array.isArray(value) ? Number(k) : k], seen);
    if (found) return found;
  }
  seen.delete(value);
  return undefined;
}
