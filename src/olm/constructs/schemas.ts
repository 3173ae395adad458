import { z } from 'zod';

/** A DNS-1123 label: namespaces, most object names. */
export const dnsLabel = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label: lowercase letters, digits and "-"')
  .max(63);

/** A DNS-1123 subdomain: CSV names, package names. */
export const dnsSubdomain = z
  .string()
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    'must be lowercase letters, digits, "-" and "."',
  )
  .max(253);

/** A Go `time.ParseDuration` string such as `10m`, `1h30m`, `1.5h`, `300ms`. */
export const goDuration = z
  .string()
  .regex(/^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/, 'must be a Go duration such as 10m, 1h or 1h30m');
