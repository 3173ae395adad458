/**
 * Kubernetes resource quantities (`500m`, `1`, `1Gi`, `1e3`) as exact rational numbers, so that
 * `1000m` and `1` compare equal the way the apiserver canonicalizes them. Returns undefined for
 * anything that is not a quantity.
 */
function parseQuantity(text: string): { num: bigint; den: bigint } | undefined {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = '', suffix, exp] = m;
  let num = BigInt(`${int}${frac}`) * (sign === '-' ? -1n : 1n);
  let den = 10n ** BigInt(frac.length);
  const binary: Record<string, bigint> = {
    Ki: 1n << 10n,
    Mi: 1n << 20n,
    Gi: 1n << 30n,
    Ti: 1n << 40n,
    Pi: 1n << 50n,
    Ei: 1n << 60n,
  };
  const decimal: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const power = suffix ? decimal[suffix] : exp !== undefined ? Number(exp) : 0;
  if (suffix && binary[suffix]) num *= binary[suffix]!;
  else if (power !== undefined && power > 0) num *= 10n ** BigInt(power);
  else if (power !== undefined && power < 0) den *= 10n ** BigInt(-power);
  return { num, den };
}

/** True when both strings are quantities with the same value (`1000m` = `1`, `1024Mi` = `1Gi`). */
export function sameQuantity(a: string, b: string): boolean {
  const qa = parseQuantity(a);
  const qb = parseQuantity(b);
  return qa !== undefined && qb !== undefined && qa.num * qb.den === qb.num * qa.den;
}

/** Keys of maps whose values are resource quantities (`resources.limits`, `requests`, quota `hard`, ...). */
const QUANTITY_MAPS: ReadonlySet<string> = new Set([
  'limits',
  'requests',
  'hard',
  'used',
  'capacity',
  'allocatable',
  'overhead',
]);

/**
 * True when a value under `containerKey` holds equal quantities on both sides (`90Mi` and `94371840`).
 * The server keeps each quantity in the format it was written in, so equal values can differ as text.
 */
export function sameQuantityIn(containerKey: string | number | undefined, a: unknown, b: unknown): boolean {
  return (
    typeof containerKey === 'string' &&
    QUANTITY_MAPS.has(containerKey) &&
    typeof a === 'string' &&
    typeof b === 'string' &&
    sameQuantity(a, b)
  );
}
