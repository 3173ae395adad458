/** `5m`, `90s`, `1h`, `1500ms` or plain milliseconds. Throws on anything else. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`invalid duration ${JSON.stringify(text)}: use e.g. 90s, 5m or 1h`);
  const n = Number(m[1]);
  return Math.round(n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1));
}
