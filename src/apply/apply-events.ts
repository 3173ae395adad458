import type { ObjectId } from '../core/object-id.js';
import type { StageName } from '../core/stages.js';
import type { ChangeAction } from './changeset.js';

/** Progress of an apply as typed events (rendered by the CLI, counted by the agent's metrics). */
export type ApplyEvent =
  | { type: 'stage-start'; stage: StageName; total: number }
  | {
      type: 'object';
      stage: StageName;
      id: ObjectId;
      action: ChangeAction;
      done: number;
      total: number;
      message?: string;
    }
  | { type: 'stage-done'; stage: StageName }
  /** `once`: `--no-wait` — the condition is checked (and acted on) once, not waited for. */
  | { type: 'wait-start'; stage: StageName; what: string; timeoutMs: number; once?: boolean }
  | { type: 'wait-progress'; stage: StageName; what: string; pending: string[]; elapsedMs: number }
  | { type: 'wait-done'; stage: StageName; what: string; elapsedMs: number; outcome: 'ready' | 'pending' }
  | { type: 'prune-start'; total: number }
  | { type: 'prune-refused'; reason: string; message: string }
  | { type: 'inventory-written'; objects: number }
  | { type: 'notice'; stage: StageName; message: string };

export type ApplyListener = (event: ApplyEvent) => void;
