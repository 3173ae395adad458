/** The PR synth preview: pure functions from two revisions' synth outcomes to `PreviewData`, and its renderings. */
export {
  buildPreview,
  type PreviewData,
  type PreviewInput,
  type PreviewRevision,
  type PreviewStatus,
  type SynthOutcome,
} from './preview.js';
export {
  previewOverlay,
  type KindSummary,
  type ObjectChange,
  type OverlayPreview,
  type OverlayStatus,
} from './overlay-preview.js';
export { PREVIEW_MARKER, previewMarkdown, type MarkdownOptions } from './render-markdown.js';
export { previewText } from './render-text.js';
export {
  RISK_SEVERITIES,
  compareRiskNotes,
  countBySeverity,
  type RiskCode,
  type RiskNote,
  type RiskSeverity,
} from './risk-note.js';
export { synthFailureOf, type SynthFailure, type SynthFailureOptions } from './synth-failure.js';
export {
  poolsSelecting,
  describePool,
  ROLE_LABEL,
  type SelectingPool,
} from '../../machine-config/pool-selection.js';
export { matchesLabelSelector } from '../../core/label-selector.js';
export { redactSecret } from './redact-secret.js';
export { unifiedDiff, type UnifiedDiffOptions } from './unified-diff.js';
