import { RE2JS } from 're2js';

/** Bounds of a regular expression from a SOPS file or a `.sops.yaml`. */
export const SOPS_REGEX_LIMITS = {
  /** Characters of the pattern (real rules are a few dozen). */
  patternChars: 1024,
  /** RE2 program instructions (`^(data|stringData)$` is 20; `(.*){1000}` is 4,002). */
  programSize: 2000,
  /**
   * Work one rule may do, as program size times characters matched, over every distinct string
   * it is asked about (each answer is remembered): about 10 s of matching at the worst.
   */
  budget: 200_000_000,
} as const;

/** Why a pattern is refused (the caller names the file and the field; the pattern is not quoted). */
export class SopsRegexError extends Error {}

/** A compiled SOPS rule: `test` answers as Go's `regexp.MatchString` (an unanchored search). */
export interface SopsRegex {
  readonly source: string;
  test(text: string): boolean;
}

/**
 * Compiles `pattern` as sops does (Go's `regexp`, RE2 syntax: `(?i)`, `\z`, no look-around, no
 * back-references) with RE2JS, a linear-time engine: no pattern makes a match backtrack, so a
 * catastrophic pattern (`(a+)+$`) costs what a plain one does. The pattern's length and program
 * size are bounded, and so is the total work of `test` (`SOPS_REGEX_LIMITS.budget`), so a hostile
 * rule over a hostile file ends in a clear error, never a hang. Throws `SopsRegexError`.
 */
export function compileSopsRegex(pattern: string): SopsRegex {
  if (pattern.length > SOPS_REGEX_LIMITS.patternChars)
    throw new SopsRegexError(`is longer than ${SOPS_REGEX_LIMITS.patternChars} characters`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    throw new SopsRegexError('is not a regular expression sops (Go RE2 syntax) accepts');
  }
  const size = compiled.programSize();
  if (size > SOPS_REGEX_LIMITS.programSize)
    throw new SopsRegexError(
      `compiles to ${size} RE2 instructions, more than the ${SOPS_REGEX_LIMITS.programSize} allowed`,
    );
  const answers = new Map<string, boolean>();
  let spent = 0;
  return {
    source: pattern,
    test(text: string): boolean {
      const known = answers.get(text);
      if (known !== undefined) return known;
      spent += size * (text.length + 1);
      if (spent > SOPS_REGEX_LIMITS.budget)
        throw new SopsRegexError('would take too long to evaluate over this many keys');
      const answer = compiled.matcher(text).find();
      answers.set(text, answer);
      return answer;
    },
  };
}
