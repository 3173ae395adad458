/** Bounds of one render. */
export interface RenderLimits {
  timeoutMs: number;
  outputCapBytes: number;
}

/** A render's output, or its problem as a validation issue of the recording construct would say it. */
export type RenderOutcome =
  { ok: true; text: string } | { ok: false; problem: string; field: string; fix?: string };
