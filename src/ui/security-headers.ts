/**
 * Headers on every dashboard response. The Content-Security-Policy allows this origin's one script
 * and stylesheet and its own fetch/EventSource, nothing inline, no frames, no forms elsewhere; the
 * page is never cached (it shows live cluster state) and never sends a Referer (a first URL carries
 * the token).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};
