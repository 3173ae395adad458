import { isPlainObject } from '../../core/object.js';
import { canonical } from './json.js';

/** Ignition spec versions the 4.14 MCO reads (`IgnitionConverter.GetSupportedMinorVersions`). */
const SUPPORTED_IGNITION_VERSIONS = ['2.2', '3.0', '3.1', '3.2', '3.3', '3.4'] as const;

const KERNEL_TYPES = ['', 'default', 'realtime', '64k-pages'];
/**
 * Unit types a systemd unit name may end in: Ignition's `validateUnitName`
 * (coreos/ignition `config/shared/validations/unit.go` and `config/v3_4/types/unit.go`), plus
 * `.snapshot`, which the MCO's own `ValidateMachineConfig` (pkg/controller/common/helpers.go)
 * still accepts.
 */
const UNIT_SUFFIXES = [
  '.service',
  '.socket',
  '.device',
  '.mount',
  '.automount',
  '.swap',
  '.target',
  '.path',
  '.timer',
  '.snapshot',
  '.slice',
  '.scope',
];
/** URL schemes Ignition accepts for file sources besides `data:`; the MCO renders them but nodes cannot write them. */
const REMOTE_SCHEMES = ['http', 'https', 'tftp', 's3', 'gs', 'arn'];

interface RawFile {
  path?: unknown;
  mode?: unknown;
  contents?: { source?: unknown };
}

/**
 * `ctrlcommon.ValidateMachineConfig` as the render controller runs it on every selected
 * MachineConfig, returning the error text or undefined:
 *
 * - `kernelType` must be empty, `default`, `realtime` or `64k-pages`;
 * - `spec.config` (absent is fine) needs a parseable `ignition.version` ("invalid version") of a
 *   supported spec ("unknown version"), with the MCO's message listing `SUPPORTED_IGNITION_VERSIONS`;
 * - Ignition 3 validation (reported as Ignition's report, `error at $.path, line 1 col N: …`): file
 *   paths absolute, file sources with a known URL scheme (`data:`, or a remote one), systemd unit
 *   names with a unit suffix; then the MCO's own rule that file modes do not exceed 0777.
 *
 * Ignition 2.2 configs are accepted without further checks. The column is where the value sits in
 * the compact, key-sorted JSON the apiserver serves, which is what the MCO parses.
 */
export function validateMachineConfig(spec: Record<string, unknown>): string | undefined {
  const kernelType = typeof spec.kernelType === 'string' ? spec.kernelType : '';
  if (!KERNEL_TYPES.includes(kernelType)) return `kernelType=${kernelType} is invalid`;
  const config = spec.config;
  if (config === undefined || config === null) return undefined;
  const versions = SUPPORTED_IGNITION_VERSIONS.join(',');
  const version =
    isPlainObject(config) && isPlainObject(config.ignition) ? config.ignition.version : undefined;
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/.exec(version) : null;
  if (!m) return `parsing Ignition config failed: invalid version. Supported spec versions: ${versions}`;
  if (m[4] || !(SUPPORTED_IGNITION_VERSIONS as readonly string[]).includes(`${m[1]}.${m[2]}`)) {
    return `parsing Ignition config failed: unknown version. Supported spec versions: ${versions}`;
  }
  if (m[1] === '2') return undefined;

  const raw = canonical(config);
  const report: string[] = [];
  const error = (path: (string | number)[], message: string, value: unknown) => {
    report.push(`error at $.${path.join('.')}, line 1 col ${column(raw, path, value)}: ${message}\n`);
  };
  const files = filesOf(config as Record<string, unknown>);
  files.forEach((f, i) => {
    if (typeof f.path === 'string' && !f.path.startsWith('/'))
      error(['storage', 'files', i, 'path'], 'path not absolute', f.path);
    const source = f.contents?.source;
    if (typeof source === 'string') {
      const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(source)?.[1]?.toLowerCase();
      if (scheme === 'data') {
        if (!source.includes(','))
          error(['storage', 'files', i, 'contents', 'source'], 'missing comma before data', source);
      } else if (!scheme || !REMOTE_SCHEMES.includes(scheme)) {
        error(['storage', 'files', i, 'contents', 'source'], 'invalid url scheme', source);
      }
    }
  });
  const units = (
    isPlainObject(config) && isPlainObject(config.systemd) && Array.isArray(config.systemd.units)
      ? config.systemd.units
      : []
  ) as {
    name?: unknown;
  }[];
  units.forEach((u, i) => {
    const name = u.name;
    if (typeof name === 'string' && !UNIT_SUFFIXES.some((s) => name.endsWith(s))) {
      error(['systemd', 'units', i, 'name'], 'invalid systemd unit extension', name);
    }
  });
  if (report.length > 0)
    return `parsing Ignition config spec v3 failed with error: config is not valid\nReport: ${report.join('')}`;

  for (const f of files) {
    if (typeof f.mode === 'number' && f.mode > 0o777) {
      return `invalid mode ${octal(f.mode)} for ${String(f.path)}, cannot exceed 0777`;
    }
  }
  return undefined;
}

/**
 * Why a node cannot apply a config that renders fine: a file whose source is a remote URL. The MCO
 * daemon only writes `data:` URLs, so the node degrades with this message (`could not decode file`).
 */
export function nodeApplyFailure(spec: Record<string, unknown>): string | undefined {
  const config = spec.config;
  if (!isPlainObject(config)) return undefined;
  for (const f of filesOf(config)) {
    const source = f.contents?.source;
    if (typeof source === 'string' && !source.startsWith('data:')) {
      return `could not decode file ${JSON.stringify(String(f.path))}: could not decode file content string: missing data prefix`;
    }
  }
  return undefined;
}

function filesOf(config: Record<string, unknown>): RawFile[] {
  const storage = config.storage;
  return (isPlainObject(storage) && Array.isArray(storage.files) ? storage.files : []).filter(
    isPlainObject,
  ) as RawFile[];
}

/** Go's `%#o`. */
function octal(n: number): string {
  return n === 0 ? '0' : `0${n.toString(8)}`;
}

/** 1-based column of the value at `path` in compact JSON (best effort: the first occurrence after its key). */
function column(raw: string, path: (string | number)[], value: unknown): number {
  const key = `"${String(path[path.length - 1])}":`;
  const needle = `${typeof path[path.length - 1] === 'number' ? '' : key}${JSON.stringify(value)}`;
  const at = raw.indexOf(needle);
  return at < 0 ? 1 : at + (needle.startsWith(key) ? key.length : 0) + 1;
}
