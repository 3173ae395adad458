import { z } from 'zod';
import { bytesDataUrl, isBase64, textDataUrl } from './data-url.js';
import { addProblem, refineWith } from './issues.js';
import {
  KERNEL_TYPE_SINCE,
  supportedExtensions,
  type IgnitionVersion,
  type KernelType,
} from './openshift-support.js';
import { rawIgnitionSchema } from './raw-ignition.js';
import {
  dropinNameProblem,
  filePathProblem,
  parseMode,
  reservedNameProblem,
  unitContentsProblem,
  unitNameProblem,
} from './rules.js';

/** What the schema needs to know about the target cluster. */
interface SchemaContext {
  readonly minor: number;
  readonly ignitionVersion: IgnitionVersion;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A pool role: a DNS label (it is also the name part of the `node-role.kubernetes.io/<role>` label). */
export const roleSchema = z
  .string()
  .max(63)
  .regex(DNS_LABEL, { error: 'a role must be a DNS label: lowercase letters, digits and "-"' });

export const machineConfigNameSchema = z
  .string()
  .max(253)
  .regex(DNS_SUBDOMAIN, { error: 'a MachineConfig name must be lowercase letters, digits, "-" and "."' })
  .superRefine(refineWith(reservedNameProblem));

const CONTENTS_MESSAGE = 'contents must be a string, { text }, { base64 } or bytes (Uint8Array or Buffer)';

/** File contents, parsed straight into the `data:` URL the config carries. */
const contents = z.unknown().transform((v, ctx): string => {
  if (typeof v === 'string') return textDataUrl(v);
  if (v instanceof Uint8Array) return bytesDataUrl(v);
  const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  const keys = o ? Object.keys(o) : [];
  if (o && keys.length === 1 && typeof o['text'] === 'string') return textDataUrl(o['text']);
  if (o && keys.length === 1 && typeof o['base64'] === 'string') {
    if (isBase64(o['base64'])) return `data:;base64,${o['base64']}`;
    addProblem(
      ctx,
      {
        message: 'is not standard padded base64',
        fix: 'remove line breaks and whitespace; pad with "=" to a multiple of 4',
      },
      ['base64'],
    );
    return z.NEVER;
  }
  if (o && 'source' in o) {
    addProblem(
      ctx,
      {
        message:
          'a remote "source" is not supported: the MCO writes files only from data: URLs, which Groundwork builds from contents',
        fix: 'inline the file: contents as text, { base64 } or bytes',
      },
      ['source'],
    );
    return z.NEVER;
  }
  addProblem(ctx, { message: CONTENTS_MESSAGE });
  return z.NEVER;
});

/** A mode as given (number or octal string), parsed into the decimal integer Ignition wants. */
const mode = z
  .union([z.number(), z.string()], {
    error: "mode must be a number such as 0o644 or an octal string such as '0644'",
  })
  .optional()
  .transform((v, ctx): number => {
    if (v === undefined) return 0o644;
    const parsed = parseMode(v);
    if ('value' in parsed) return parsed.value;
    addProblem(ctx, parsed.problem);
    return z.NEVER;
  });

const file = z.strictObject({
  path: z.string().superRefine(refineWith(filePathProblem)),
  mode,
  contents,
  overwrite: z.boolean().optional(),
});

const unit = z
  .strictObject({
    name: z.string().superRefine(refineWith(unitNameProblem)),
    enabled: z.boolean().optional(),
    mask: z.boolean().optional(),
    contents: z.string().superRefine(refineWith(unitContentsProblem)).optional(),
    dropins: z
      .array(
        z.strictObject({
          name: z.string().superRefine(refineWith(dropinNameProblem)),
          contents: z.string().superRefine(refineWith(unitContentsProblem)),
        }),
      )
      .optional(),
  })
  .superRefine((u, ctx) => {
    if (u.mask && u.enabled)
      addProblem(ctx, { message: 'a masked unit cannot be enabled', fix: 'remove enabled, or mask: false' }, [
        'mask',
      ]);
    const seen = new Set<string>();
    (u.dropins ?? []).forEach((d, i) => {
      if (seen.has(d.name))
        addProblem(
          ctx,
          { message: `drop-in ${d.name} is declared twice in ${u.name}`, fix: 'merge the two drop-ins' },
          ['dropins', i, 'name'],
        );
      seen.add(d.name);
    });
  });

const schemas = new Map<string, ReturnType<typeof buildMachineConfigSchema>>();

/**
 * The props of a MachineConfig after the pool has been resolved to its role. Memoized per OpenShift
 * minor and Ignition version: zod compiles a schema on first use, and a platform has thousands of
 * MachineConfigs but one version.
 */
export function machineConfigSchema(c: SchemaContext) {
  const key = `${c.minor}/${c.ignitionVersion}`;
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = buildMachineConfigSchema(c)));
  return schema;
}

function buildMachineConfigSchema(c: SchemaContext) {
  const extensions = supportedExtensions(c.minor);
  return z
    .strictObject({
      name: machineConfigNameSchema.optional(),
      pool: roleSchema,
      files: z.array(file).optional(),
      units: z.array(unit).optional(),
      kernelArguments: z
        // The daemon splits each entry on whitespace (respecting quotes), so `'nosmt mitigations=off'` is fine.
        .array(
          z.string().refine((a) => a.trim() !== '', {
            error: 'a kernel argument must not be empty',
            params: { fix: 'remove the empty entry' },
          }),
        )
        .optional(),
      extensions: z
        .array(
          z.string().refine((e) => extensions.includes(e), {
            error: (iss) =>
              `extension ${JSON.stringify(iss.input)} is not available on OpenShift 4.${c.minor}`,
            params: { fix: `use one of: ${extensions.join(', ')}` },
          }),
        )
        .optional(),
      kernelType: z
        .enum(['default', 'realtime', '64k-pages'])
        .refine((k: KernelType) => c.minor >= KERNEL_TYPE_SINCE[k], {
          error: (iss) =>
            `kernelType ${String(iss.input)} needs OpenShift 4.${KERNEL_TYPE_SINCE[iss.input as KernelType]} or later`,
          params: { fix: 'use default or realtime' },
        })
        .optional(),
      fips: z.boolean().optional(),
      ignition: rawIgnitionSchema(c.ignitionVersion).optional(),
    })
    .superRefine((p, ctx) => {
      const devel = p.extensions?.indexOf('kernel-devel') ?? -1;
      if (devel >= 0 && p.kernelType && p.kernelType !== 'default') {
        addProblem(
          ctx,
          {
            message: `the kernel-devel extension only works with the default kernel, not ${p.kernelType}`,
            fix: 'drop kernel-devel or use kernelType default',
          },
          ['extensions', devel],
        );
      }
    });
}

export type ParsedMachineConfigProps = z.infer<ReturnType<typeof machineConfigSchema>>;
