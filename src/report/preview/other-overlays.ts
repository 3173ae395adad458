import type { SynthResult } from '../../render/synth/synthesize.js';

/**
 * With one overlay previewed: the other overlays whose manifests the change also touches (their
 * synth hashes differ, or the overlay is new or gone), or why that is not known.
 */
export type OtherOverlays = { changed: string[]; unchanged: string[] } | { unknown: string };

/**
 * Compares every overlay but `previewed` between base's and head's synth results, by their
 * manifest-set hash (`setHash`: the same manifests give the same hash). Names are sorted. Pure.
 */
export function otherOverlayChanges(
  base: readonly SynthResult[],
  head: readonly SynthResult[],
  previewed: string,
): OtherOverlays {
  const baseHash = new Map(base.map((r) => [r.overlay, r.hash]));
  const headHash = new Map(head.map((r) => [r.overlay, r.hash]));
  const names = [...new Set([...baseHash.keys(), ...headHash.keys()])].filter((n) => n !== previewed).sort();
  const changed = names.filter((n) => baseHash.get(n) !== headHash.get(n));
  return { changed, unchanged: names.filter((n) => !changed.includes(n)) };
}

/** One sentence for text and Markdown (`code` wraps an overlay name, `text` the reason). */
export function otherOverlaysSentence(
  o: OtherOverlays,
  code: (s: string) => string = (s) => s,
  text: (s: string) => string = (s) => s,
): string {
  if ('unknown' in o) return `Other overlays: not compared (${text(o.unknown)}).`;
  if (o.changed.length === 0)
    return o.unchanged.length === 0
      ? 'Other overlays: there are none.'
      : `Other overlays: none changes (${o.unchanged.map(code).join(', ')}).`;
  return `Other overlays: ${o.changed.map(code).join(', ')} ${o.changed.length === 1 ? 'changes' : 'change'} too (preview with --all-overlays).`;
}
