// How the Kubernetes clients read a plain YAML scalar: go-yaml v2's `resolve` (the YAML 1.1 reader
// behind sigs.k8s.io/yaml, so behind kubectl, client-go, helm install and Argo CD), ported.

/** What a plain scalar resolves to. */
export type ScalarResolution =
  | { tag: 'str'; value: string }
  | { tag: 'null'; value: null }
  | { tag: 'bool'; value: boolean }
  | { tag: 'int'; value: number }
  | { tag: 'float'; value: number };

const NAMED: ReadonlyMap<string, ScalarResolution> = new Map<string, ScalarResolution>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map(
    (s) => [s, { tag: 'bool', value: true }] as const,
  ),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map(
    (s) => [s, { tag: 'bool', value: false }] as const,
  ),
  ...['', '~', 'null', 'Null', 'NULL'].map((s) => [s, { tag: 'null', value: null }] as const),
  ...['.nan', '.NaN', '.NAN'].map((s) => [s, { tag: 'float', value: Number.NaN }] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map(
    (s) => [s, { tag: 'float', value: Number.POSITIVE_INFINITY }] as const,
  ),
  ...['-.inf', '-.Inf', '-.INF'].map((s) => [s, { tag: 'float', value: Number.NEGATIVE_INFINITY }] as const),
]);

/** go-yaml v2's `yamlStyleFloat`. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** What Go's `strconv.ParseFloat` reads of a scalar that starts with `.`. */
const DOT_FLOAT = /^\.(?:[0-9](?:_?[0-9])*)(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * A plain (unquoted, untagged) scalar as go-yaml v2 resolves it (`resolve.go`, v2.4), which is how
 * kubectl, client-go and helm read a manifest: YAML 1.1 booleans (`y`, `yes`, `on`, `off`, `n`,
 * ... in three casings), nulls (`~`, `null`, empty), integers through Go's `strconv.ParseInt(s, 0,
 * 64)` once underscores are removed (`0444` and `0o444` octal, `0x1F` hex, `0b101` binary,
 * `1_000`), unsigned 64-bit integers beyond int64, decimal floats (`.5`, `1e3`, `08` which is no
 * octal), and `.inf`/`.nan`. Everything else is a string, also what YAML 1.1 calls a timestamp
 * (`2001-12-14`: go-yaml v2 gives it as text) and a sexagesimal number (`1:30`, which v2 does not
 * support). Integers beyond 2^53 lose precision as JavaScript numbers. Pure.
 */
export function resolvePlainScalar(text: string): ScalarResolution {
  const first = text.charCodeAt(0);
  // go-yaml's hint table: only these first characters can make a scalar anything but a string.
  const sign = first === 43 /* + */ || first === 45; /* - */
  const digit = first >= 48 && first <= 57;
  const dot = first === 46;
  if (!sign && !digit && !dot && !'yYnNtTfFoO~'.includes(text[0] ?? '~')) return str(text);
  const named = NAMED.get(text);
  if (named) return named;
  if (dot) {
    if (!DOT_FLOAT.test(text)) return str(text);
    return { tag: 'float', value: Number(text.replaceAll('_', '')) };
  }
  if (!sign && !digit) return str(text);
  const plain = text.replaceAll('_', '');
  const int = parseGoInt(plain);
  if (int !== undefined) return { tag: 'int', value: Number(int) };
  const uint = parseGoUint(plain);
  if (uint !== undefined) return { tag: 'int', value: Number(uint) };
  if (YAML_STYLE_FLOAT.test(plain)) {
    const value = Number(plain);
    // Go's ParseFloat refuses a number past float64's range (ErrRange): the scalar stays text.
    if (Number.isFinite(value)) return { tag: 'float', value };
  }
  return str(text);
}

function str(value: string): ScalarResolution {
  return { tag: 'str', value };
}

/** Go's `strconv.ParseInt(s, 0, 64)`: an optional sign, then `parseGoUint`, within int64. */
function parseGoInt(s: string): bigint | undefined {
  const negative = s.startsWith('-');
  const body = s.startsWith('+') || negative ? s.slice(1) : s;
  const magnitude = parseGoUint(body);
  if (magnitude === undefined) return undefined;
  if (negative ? magnitude > INT64_MAX + 1n : magnitude > INT64_MAX) return undefined;
  return negative ? -magnitude : magnitude;
}

/**
 * Go's `strconv.ParseUint(s, 0, 64)` without underscores: `0b`/`0o`/`0x` prefixes (with at least
 * one character after them), a leading `0` for octal, else decimal; no sign; within uint64.
 */
function parseGoUint(s: string): bigint | undefined {
  if (s === '') return undefined;
  let base = 10;
  let digits = s;
  if (s[0] === '0') {
    const prefix = s.length >= 3 ? s[1]!.toLowerCase() : '';
    if (prefix === 'b' || prefix === 'o' || prefix === 'x') {
      base = prefix === 'b' ? 2 : prefix === 'o' ? 8 : 16;
      digits = s.slice(2);
    } else {
      base = 8;
      digits = s.slice(1);
    }
  }
  let n = 0n;
  const b = BigInt(base);
  for (const c of digits.toLowerCase()) {
    const code = c.charCodeAt(0);
    const d = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 122 ? code - 87 : 99;
    if (d >= base) return undefined;
    n = n * b + BigInt(d);
    if (n > UINT64_MAX) return undefined;
  }
  return n;
}
