/** The time source of a simulator; tests may pass a fixed or stepping clock. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** RFC 3339 with second precision, as Kubernetes serializes `metav1.Time` (`2024-02-07T16:31:06Z`). */
export function timestamp(clock: Clock): string {
  return clock()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}
