/**
 * sops's `MACOnlyEncryptedInitialization` (`sops.go`): written first into the MAC's hash when
 * `mac_only_encrypted` is set, so the two kinds of MAC never agree.
 */
export const MAC_ONLY_ENCRYPTED_INIT = Buffer.from([
  0x8a, 0x3f, 0xd2, 0xad, 0x54, 0xce, 0x66, 0x52, 0x7b, 0x10, 0x34, 0xf3, 0xd1, 0x47, 0xbe, 0x0b, 0x0b, 0x97,
  0x5b, 0x3b, 0xf4, 0x4f, 0x72, 0xc6, 0xfd, 0xad, 0xec, 0x81, 0x76, 0xf2, 0x7d, 0x69,
]);

/**
 * A value's bytes in the MAC (sops `ToBytes`): strings as UTF-8, booleans `True`/`False`, numbers
 * in Go's `%d` / `strconv.FormatFloat(v, 'f', -1, 64)` (plain decimal, shortest round trip).
 */
export function macBytes(value: string | number | boolean): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (typeof value === 'boolean') return Buffer.from(value ? 'True' : 'False');
  return Buffer.from(plainDecimal(value));
}

/** `n` without an exponent, as Go's 'f' format with precision -1 writes it. */
function plainDecimal(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', exp] = m;
  const digits = lead! + frac;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.padEnd(point, '0')}`;
}

/**
 * The additional data the MAC is encrypted with: `lastmodified` as Go formats it with
 * `time.RFC3339` after parsing (seconds, no fraction).
 */
export function macTime(lastmodified: string): string {
  return lastmodified.replace(/\.\d+(?=(Z|[+-]\d\d:\d\d)$)/, '');
}
