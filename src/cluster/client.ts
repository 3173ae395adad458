// Deep import: the package index also loads every generated API model (~85 MB of RSS) that
// Groundwork never uses; the config module alone handles kubeconfig, contexts, in-cluster and auth.
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import {
  Agent as HttpsAgent,
  request as httpsRequest,
  type AgentOptions,
  type RequestOptions,
} from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { ApiError, ConnectionError } from './api-error.js';
import { checkContext, kubeconfigInvalid, kubeconfigSource } from './kubeconfig-source.js';
import { refuseCredentialPlugins } from './kubeconfig-trust.js';
import { parseBody, parseStatus } from './response-body.js';
import { checkRequestPath } from './request-path.js';

/** How to find the cluster, following kubectl's conventions. */
export interface KubeClientOptions {
  /** Path of a kubeconfig file. @default $KUBECONFIG, else in-cluster config, else ~/.kube/config */
  kubeconfig?: string;
  /** Context to use instead of the current one. */
  context?: string;
  /** Sent as User-Agent. @default 'groundwork' */
  userAgent?: string;
  /** Concurrent connections to the apiserver. @default 32 */
  maxSockets?: number;
  /** Attempts for network errors and 429/503/504 responses. @default 4 */
  retries?: number;
  /**
   * The repository file (a fleet file) that named `kubeconfig`, when the operator does not name
   * it too: the selected user may not run a credential plugin (`refuseCredentialPlugins`).
   * @default the kubeconfig is the operator's own: plugins run as kubectl runs them
   */
  namedBy?: string;
}

export interface RequestOpts {
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Do not retry this request (e.g. non-idempotent creates). */
  noRetry?: boolean;
  /** Extra headers; `Accept` here replaces the JSON default. */
  headers?: Record<string, string>;
}

/** Counts of requests by HTTP method, for tests and benchmarks ("a no-op makes zero writes"). */
export type RequestCounts = Record<string, number>;

/**
 * The only door to the apiserver. Authentication and TLS come from `@kubernetes/client-node`'s
 * KubeConfig (kubeconfig files, contexts, in-cluster service accounts, exec plugins); requests
 * are plain JSON over a keep-alive agent, so objects arrive exactly as the server sent them
 * (no typed-model round trip that could drop or reorder fields).
 */
export class KubeClient {
  readonly server: string;
  readonly counts: RequestCounts = {};
  private readonly agent: HttpsAgent | HttpAgent;
  /** Watches hold their connection for minutes: they get their own sockets, never the request pool's. */
  private readonly streamAgent: HttpsAgent | HttpAgent;
  private authHeaders: Record<string, string> = {};
  private authFetchedAt = 0;

  private constructor(
    private readonly kc: KubeConfig,
    private readonly tls: RequestOptions,
    private readonly opts: KubeClientOptions,
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = cluster.server.replace(/\/$/, '');
    const agentOpts: AgentOptions = {
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 32,
      ...(tls as AgentOptions),
    };
    this.agent = this.server.startsWith('http:') ? new HttpAgent(agentOpts) : new HttpsAgent(agentOpts);
    const streamOpts: AgentOptions = { ...agentOpts, keepAlive: false, maxSockets: Infinity };
    this.streamAgent = this.server.startsWith('http:')
      ? new HttpAgent(streamOpts)
      : new HttpsAgent(streamOpts);
  }

  /** Loads configuration like kubectl: explicit file, `$KUBECONFIG`, in-cluster, then `~/.kube/config`. */
  static async load(opts: KubeClientOptions = {}): Promise<KubeClient> {
    const kc = new KubeConfig();
    const source = kubeconfigSource(opts.kubeconfig);
    if (source.kind === 'in-cluster') kc.loadFromCluster();
    else {
      try {
        if (source.paths.length === 1) kc.loadFromFile(source.paths[0]!);
        else kc.loadFromDefault(); // several files in $KUBECONFIG: the library merges them as kubectl does
      } catch {
        // The library's YAML errors quote the file, credentials included: name the file only.
        throw kubeconfigInvalid(
          source.paths.join(', '),
          'not a kubeconfig the client can load (not YAML, or a field of the wrong type)',
        );
      }
    }
    if (opts.context) {
      checkContext(
        opts.context,
        kc.getContexts().map((c) => c.name),
        source.kind === 'file' ? source.paths.join(', ') : 'in-cluster',
      );
      kc.setCurrentContext(opts.context);
    }
    // Before applyToHTTPSOptions: that is where client-node runs exec and auth-provider commands.
    if (opts.namedBy && source.kind === 'file')
      refuseCredentialPlugins(kc, { file: source.paths.join(', '), namedBy: opts.namedBy });
    return KubeClient.connect(kc, opts);
  }

  /**
   * A client from the text of a kubeconfig held in memory (the fleet hub's credentials, never
   * written to disk), its current context. Its users may not run credential plugins: such text
   * comes from a Secret or a registration, not from the operator's own files.
   */
  static async fromKubeconfigText(
    text: string,
    opts: Pick<KubeClientOptions, 'userAgent' | 'maxSockets' | 'retries'> & { where: string },
  ): Promise<KubeClient> {
    const kc = new KubeConfig();
    try {
      kc.loadFromString(text);
    } catch {
      throw kubeconfigInvalid(
        opts.where,
        'not a kubeconfig the client can load (not YAML, or a field of the wrong type)',
      );
    }
    refuseCredentialPlugins(kc, { file: opts.where, namedBy: opts.where });
    return KubeClient.connect(kc, opts);
  }

  private static async connect(kc: KubeConfig, opts: KubeClientOptions): Promise<KubeClient> {
    const tls: RequestOptions = {};
    await kc.applyToHTTPSOptions(tls);
    const client = new KubeClient(kc, pickTls(tls), opts);
    client.captureAuth(tls);
    return client;
  }

  /**
   * The current cluster's CA bundle, base64 (`certificate-authority-data`, or the file it names),
   * for handing the same server to someone else (the fleet hub's bootstrap kubeconfigs); undefined
   * when the kubeconfig names none (the system's CAs).
   */
  clusterCaData(): string | undefined {
    const cluster = this.kc.getCurrentCluster();
    if (cluster?.caData) return cluster.caData;
    if (cluster?.caFile) return readFileSync(cluster.caFile).toString('base64');
    return undefined;
  }

  /** The namespace of the current context (or the service account's), `default` when unset. */
  currentNamespace(): string {
    return this.kc.getContextObject(this.kc.getCurrentContext())?.namespace ?? 'default';
  }

  /**
   * Sends one request and returns its JSON body (`undefined` when empty) validated by `opts.schema`.
   * Throws ApiError (a non-2xx answer), ConnectionError, or ClusterResponseInvalidError (a body that
   * is not JSON or does not match the schema; never retried).
   *
   * @example
   * const cm = await client.request('GET', path, { schema: k8sObjectSchema });
   */
  request<S extends z.ZodType>(
    method: string,
    path: string,
    opts: RequestOpts & { schema: S },
  ): Promise<z.output<S>>;
  /**
   * Without a schema the body is unchecked: only for requests whose body is not read (a DELETE),
   * and for the simulators and tests, which talk to a server they set up. Product code that reads
   * the body passes a schema (test/lint/parsed-cluster-data.test.ts holds it to that).
   */
  request<T = unknown>(method: string, path: string, opts?: RequestOpts): Promise<T>;
  async request(
    method: string,
    path: string,
    opts: RequestOpts & { schema?: z.ZodType } = {},
  ): Promise<unknown> {
    // Before any attempt: a path that would name another resource is never sent, nor retried.
    checkRequestPath(path);
    const attempts = opts.noRetry ? 1 : (this.opts.retries ?? 4);
    for (let attempt = 1; ; attempt++) {
      let res: IncomingMessage;
      let text: string;
      try {
        res = await this.send(method, path, opts);
        text = await readBody(res);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const conn = new ConnectionError(method, path, err as Error);
        if (attempt >= attempts) throw conn;
        await delay(backoff(attempt), opts.signal);
        continue;
      }
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return parseBody(text, opts.schema, `${method} ${path}`);
      if (attempt < attempts && [429, 503, 504].includes(status)) {
        await delay(retryAfter(res) ?? backoff(attempt), opts.signal);
        continue;
      }
      throw new ApiError({ status, method, path, body: parseStatus(text), text });
    }
  }

  /**
   * Opens a streaming GET (watches) and calls `onLine` for each newline-delimited JSON event.
   * Resolves when the server closes the stream; rejects on HTTP errors. Abort with `signal`.
   */
  async stream(
    path: string,
    query: RequestOpts['query'],
    onLine: (line: string) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    checkRequestPath(path);
    const res = await this.send('GET', path, { query, signal }, this.streamAgent);
    if ((res.statusCode ?? 0) >= 300) {
      const text = await readBody(res);
      throw new ApiError({ status: res.statusCode ?? 0, method: 'GET', path, body: parseStatus(text), text });
    }
    await new Promise<void>((resolve, reject) => {
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        try {
          for (const line of lines) if (line.trim()) onLine(line);
        } catch (err) {
          // A handler that throws (e.g. on a watch ERROR event) ends the stream with its error,
          // instead of escaping as an uncaught exception from the socket's event.
          res.destroy();
          reject(err);
        }
      });
      res.on('end', () => resolve());
      res.on('error', (err) => (signal?.aborted ? resolve() : reject(err)));
      res.on('close', () => resolve());
    });
  }

  /** Closes idle keep-alive connections so the process can exit. */
  close(): void {
    this.agent.destroy();
    this.streamAgent.destroy();
  }

  private async send(
    method: string,
    path: string,
    opts: RequestOpts,
    agent: HttpsAgent | HttpAgent = this.agent,
  ): Promise<IncomingMessage> {
    this.counts[method] = (this.counts[method] ?? 0) + 1;
    const headers = await this.headers();
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const payload =
      opts.body === undefined
        ? undefined
        : typeof opts.body === 'string'
          ? opts.body
          : JSON.stringify(opts.body);
    const reqHeaders: Record<string, string> = {
      ...headers,
      Accept: 'application/json',
      'User-Agent': this.opts.userAgent ?? 'groundwork',
      ...opts.headers,
    };
    if (payload !== undefined) {
      reqHeaders['Content-Type'] = opts.contentType ?? 'application/json';
      reqHeaders['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        { method, headers: reqHeaders, agent, signal: opts.signal, ...this.tls },
        resolve,
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  private async headers(): Promise<Record<string, string>> {
    // Tokens rotate (projected service-account tokens, exec plugins): refresh them every minute.
    if (Date.now() - this.authFetchedAt > 60_000) {
      const opts: RequestOptions = {};
      await this.kc.applyToHTTPSOptions(opts);
      this.captureAuth(opts);
    }
    return this.authHeaders;
  }

  private captureAuth(opts: RequestOptions): void {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    this.authHeaders = headers;
    this.authFetchedAt = Date.now();
  }
}

function pickTls(o: RequestOptions): RequestOptions {
  const tls: RequestOptions = {};
  for (const k of ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const) {
    if (o[k] !== undefined) (tls as Record<string, unknown>)[k] = o[k];
  }
  return tls;
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

function retryAfter(res: IncomingMessage): number | undefined {
  const header = Number(res.headers['retry-after']);
  return Number.isFinite(header) && header > 0 ? Math.min(header, 10) * 1000 : undefined;
}

function backoff(attempt: number): number {
  return Math.min(200 * 2 ** (attempt - 1), 3000) * (0.5 + Math.random() / 2);
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
}
