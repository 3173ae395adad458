/** The PR synth preview: pure functions from two revisions' synth outcomes to `PreviewData`, and its renderings. */
export { buildPreview, type PreviewData, type SynthOutcome } from './preview.js';
export { PREVIEW_MARKER, previewMarkdown } from './render-markdown.js';
export { previewText } from './render-text.js';
export { synthFailureOf, type SynthFailure } from './synth-failure.js';
export { otherOverlayChanges, type OtherOverlays } from './other-overlays.js';
