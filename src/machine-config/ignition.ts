import type { ParsedMachineConfigProps } from './machine-config-schema.js';
import type { IgnitionVersion } from './openshift-support.js';

/** A file as Ignition 3.x writes it: `mode` is a decimal integer, `contents.source` a `data:` URL. */
interface IgnitionFile {
  path: string;
  mode: number;
  overwrite: boolean;
  contents: { source: string };
}

interface IgnitionUnit {
  name: string;
  enabled?: boolean;
  mask?: boolean;
  contents?: string;
  dropins?: { name: string; contents: string }[];
}

/** The Ignition sections a MachineConfig renders; raw sections pass through unchanged. */
interface IgnitionConfig {
  ignition: { version: IgnitionVersion; [field: string]: unknown };
  storage?: { files?: IgnitionFile[]; [field: string]: unknown };
  systemd?: { units?: IgnitionUnit[]; [field: string]: unknown };
  [section: string]: unknown;
}

/** Something a MachineConfig writes on the node, with the prop path that declares it. */
export interface ConfigEntry {
  readonly kind: 'file' | 'unit';
  /** File path or unit name. */
  readonly key: string;
  /** e.g. `files[2].path`, `ignition.storage.files[0].path`. */
  readonly field: string;
}

type Raw = Record<string, unknown> & { storage?: { files?: unknown[] }; systemd?: { units?: unknown[] } };

/**
 * Renders validated props as Ignition `version`: the raw `ignition` escape hatch first (a plain JSON
 * copy), then the friendly files and units appended to its lists. `overwrite` defaults to true, as
 * the MCO itself does for every file. Does not validate: the schema already did.
 */
export function renderIgnition(p: ParsedMachineConfigProps, version: IgnitionVersion): IgnitionConfig {
  const raw = (p.ignition === undefined ? {} : JSON.parse(JSON.stringify(p.ignition))) as Raw;
  const files: unknown[] = [
    ...(raw.storage?.files ?? []),
    ...(p.files ?? []).map((f): IgnitionFile => ({
      path: f.path,
      mode: f.mode,
      overwrite: f.overwrite ?? true,
      contents: { source: f.contents },
    })),
  ];
  const units: unknown[] = [
    ...(raw.systemd?.units ?? []),
    ...(p.units ?? []).map((u): IgnitionUnit => ({
      name: u.name,
      ...(u.enabled !== undefined ? { enabled: u.enabled } : {}),
      ...(u.mask !== undefined ? { mask: u.mask } : {}),
      ...(u.contents !== undefined ? { contents: u.contents } : {}),
      ...(u.dropins?.length
        ? { dropins: u.dropins.map((d) => ({ name: d.name, contents: d.contents })) }
        : {}),
    })),
  ];
  const { ignition, storage, systemd, ...rest } = raw;
  const config: IgnitionConfig = { ...rest, ignition: { ...(ignition as object | undefined), version } };
  const { files: _files, ...storageRest } = storage ?? {};
  const { units: _units, ...systemdRest } = systemd ?? {};
  if (storage || files.length)
    config.storage = { ...storageRest, ...(files.length ? { files: files as IgnitionFile[] } : {}) };
  if (systemd || units.length)
    config.systemd = { ...systemdRest, ...(units.length ? { units: units as IgnitionUnit[] } : {}) };
  return config;
}

/** The files and units of validated props, raw ones first (the order `renderIgnition` emits them). */
export function entriesOf(p: ParsedMachineConfigProps): ConfigEntry[] {
  const raw = (p.ignition ?? {}) as Raw;
  const named = (x: unknown, k: 'path' | 'name') => String((x as Record<string, unknown>)[k]);
  return [
    ...(raw.storage?.files ?? []).map((f, i) => ({
      kind: 'file' as const,
      key: named(f, 'path'),
      field: `ignition.storage.files[${i}].path`,
    })),
    ...(p.files ?? []).map((f, i) => ({ kind: 'file' as const, key: f.path, field: `files[${i}].path` })),
    ...(raw.systemd?.units ?? []).map((u, i) => ({
      kind: 'unit' as const,
      key: named(u, 'name'),
      field: `ignition.systemd.units[${i}].name`,
    })),
    ...(p.units ?? []).map((u, i) => ({ kind: 'unit' as const, key: u.name, field: `units[${i}].name` })),
  ];
}
