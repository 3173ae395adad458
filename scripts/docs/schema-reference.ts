import { parse } from 'yaml';
import { z } from 'zod';
import { cell } from './cli-reference.js';

/** The part of a JSON Schema (draft 2020-12, as `z.toJSONSchema` writes it) a reference reads. */
interface JsonSchema {
  type?: string;
  enum?: readonly unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
}

/** One documented field: its path (`environments[].ref`), type, whether required, default, description. */
export interface FieldRow {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly description: string;
}

/** The type as a reader writes it: `string`, `boolean`, `"webhook" \| "slack"`, `object[]`. */
function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(' | ');
  if (s.type === 'array')
    return s.items ? `${typeOf(s.items)}[]`.replace(/^(.* \| .*)\[\]$/, '($1)[]') : 'array';
  return s.type ?? 'any';
}

/** The object a field holds, itself or as the items of its list: the fields below it. */
function objectOf(s: JsonSchema): JsonSchema | undefined {
  if (s.type === 'object' && s.properties) return s;
  if (s.type === 'array' && s.items) return objectOf(s.items);
  return undefined;
}

/** The rows of every field under `s` (depth first, in declaration order), named from `prefix`. */
function rowsOf(s: JsonSchema, prefix: string): FieldRow[] {
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    const inner = objectOf(field);
    const suffix = field.type === 'array' ? '[].' : '.';
    return [
      {
        path,
        type: typeOf(field),
        required: required.has(key) && field.default === undefined,
        ...(field.default !== undefined ? { default: field.default } : {}),
        description: field.description ?? '',
      },
      ...(inner ? rowsOf(inner, `${path}${suffix}`) : []),
    ];
  });
}

/** The parts of a zod definition that lead to a field's default. */
interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  element?: { _zod: { def: ZodDef } };
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  defaultValue?: unknown;
}

/**
 * Each field's `.default()`, by path, read from the zod definitions: `z.toJSONSchema` leaves out
 * the default of a list whose items transform (`environments`), since it cannot say the default
 * is valid input.
 */
function defaultsOf(def: ZodDef, path: string, out: Map<string, unknown>): Map<string, unknown> {
  if (def.type === 'default') {
    if (!out.has(path)) out.set(path, def.defaultValue);
    return defaultsOf(def.innerType!._zod.def, path, out);
  }
  const next =
    def.type === 'pipe'
      ? def.in
      : def.type === 'optional' || def.type === 'nullable'
        ? def.innerType
        : undefined;
  if (next) return defaultsOf(next._zod.def, path, out);
  if (def.type === 'array') return defaultsOf(def.element!._zod.def, `${path}[]`, out);
  if (def.type === 'object')
    for (const [key, field] of Object.entries(def.shape ?? {}))
      defaultsOf(field._zod.def, path === '' ? key : `${path}.${key}`, out);
  return out;
}

/** The fields of an object schema, read through its input side (what a file may hold: defaults apply). */
export function fieldRows(schema: z.ZodType): FieldRow[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defaults = defaultsOf(schema._zod.def as unknown as ZodDef, '', new Map());
  return rowsOf(json, '').map((r) =>
    r.default === undefined && defaults.has(r.path)
      ? { ...r, default: defaults.get(r.path), required: false }
      : r,
  );
}

/**
 * A reference page for a YAML file read by `schema`: a title, the text before the table, an
 * example (checked against `schema`: an example that does not parse throws), and one row per
 * field (field, type, required, default, description). `descriptions` describes, by the end of
 * their path (`unmanaged.report` also matches `environments[].unmanaged.report`), fields whose
 * schema has no `.describe()`. Pure. A field described nowhere is described as `(undescribed)`,
 * which test/docs/generated-pages.test.ts refuses.
 */
export function schemaReference(options: {
  readonly title: string;
  readonly intro: string;
  readonly schema: z.ZodType;
  readonly source: string;
  readonly example: string;
  readonly descriptions?: Readonly<Record<string, string>>;
}): string {
  const checked = options.schema.safeParse(parse(options.example));
  if (!checked.success)
    throw new Error(`the example of ${options.title} is invalid: ${checked.error.message}`);
  const fallback = Object.entries(options.descriptions ?? {});
  const describe = (r: FieldRow) =>
    r.description ||
    fallback.find(([key]) => r.path === key || r.path.endsWith(`.${key}`))?.[1] ||
    UNDESCRIBED;
  const rows = fieldRows(options.schema).map(
    (r) =>
      `| \`${r.path}\` | \`${cell(r.type)}\` | ${r.required ? 'yes' : ''} | ${r.default !== undefined ? `\`${cell(JSON.stringify(r.default))}\`` : ''} | ${cell(describe(r))} |`,
  );
  return [
    `<!-- Generated from ${options.source} by \`npm run docs\` (scripts/docs/schema-reference.ts): do not edit. -->`,
    '',
    `# ${options.title}`,
    '',
    options.intro.trim(),
    '',
    '```yaml',
    options.example.trim(),
    '```',
    '',
    'A field under a list is written `list[].field`. Unknown keys are refused.',
    '',
    '| Field | Type | Required | Default | Description |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** What a field without a description is described as. */
export const UNDESCRIBED = '(undescribed)';
