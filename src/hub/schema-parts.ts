import { z } from 'zod';

// Bounded building blocks of the hub's schemas. Every string has a maximum length, every list a
// maximum count, every number a range: the CRDs are generated from these schemas (`hubCrds`), so
// the apiserver refuses what the bounds refuse, and readers parse with the same schemas.

/** A string of at most `max` characters. */
export const text = (max: number) => z.string().max(max);

/** A DNS-1123 label (namespaces, platform names, environment names). */
export const dnsLabel = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label');

/** A DNS-1123 subdomain (object names). */
export const dnsSubdomain = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, 'must be a DNS subdomain');

/** A time as `metav1.Time` and `metav1.MicroTime` write it (RFC 3339, UTC or with an offset). */
export const time = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/, 'must be an RFC 3339 time');

/** `at` (a Date or epoch milliseconds) as a `time`: RFC 3339 in UTC at second precision. */
export function rfc3339(at: Date | number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A revision in the frozen format (`<ref>@sha1:<40 hex>`, `+dirty` for a local work tree). */
export const revision = z
  .string()
  .max(300)
  .regex(/^[^\s@]{1,255}@sha1:[0-9a-f]{40}(\+dirty)?$/, 'must be <ref>@sha1:<40 hex>');

/** A count: an integer from 0 to `max`. */
export const count = (max = 1_000_000) => z.number().int().min(0).max(max);
