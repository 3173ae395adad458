/**
 * A request a notification makes, built purely and sent by a `Transport`. Its headers may hold a
 * token: a request is never logged or put in an error, only its target's name and the status.
 */
export interface HttpRequest {
  readonly url: string;
  readonly method: 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Sends one request; resolves with the response's status (never its body), rejects on a network error or the signal. */
export interface Transport {
  send(request: HttpRequest, signal: AbortSignal): Promise<{ status: number; retryAfterMs?: number }>;
}
