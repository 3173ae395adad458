// What the renderer forwards as it came: a platform child's answer with nothing left to render.
import { isPlainObject } from '../../core/object.js';
import { frameBounds, jsonShape } from './json-shape.js';

/**
 * The JSON of `frame` (after its `nonce` line), when it is a frame of this run within
 * `frameBounds(capBytes)` whose output is `ok: true` with results that recorded no chart or
 * kustomization (no `renders` key): the renderer has nothing to add to it, so it forwards these
 * bytes to the trusted side instead of parsing them with the frame's schemas, encoding them again
 * and having the trusted side parse them a second time. Undefined for anything else (a failure, a
 * result with renders, a forged or malformed frame): the renderer then reads it as before
 * (`settleOutcome`). Safe because the trusted side reads every renderer answer with `decodeFrame`
 * (its bounds, strict schemas and identity checks); the renderer is no boundary. Pure.
 */
export function unrenderedAnswer(frame: Buffer, nonce: string, capBytes: number): Buffer | undefined {
  const prefix = `${nonce}\n`;
  if (frame.length < prefix.length || frame.subarray(0, prefix.length).toString('latin1') !== prefix)
    return undefined;
  // Counted before parsing, as `decodeFrame` does: a frame of millions of tiny values is not parsed here.
  if (!jsonShape(frame, prefix.length, frameBounds(capBytes)).ok) return undefined;
  let output: unknown;
  try {
    output = JSON.parse(frame.subarray(prefix.length).toString('utf8'));
  } catch {
    return undefined;
  }
  const results = isPlainObject(output) && output.ok === true ? output.results : undefined;
  if (!Array.isArray(results) || !results.every((r) => isPlainObject(r) && !Object.hasOwn(r, 'renders')))
    return undefined;
  return frame.subarray(prefix.length);
}
