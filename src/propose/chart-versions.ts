import jsyaml from 'js-yaml';
import { z } from 'zod';
import { checkedFetch } from '../core/checked-fetch.js';
import type { OutboundPolicy } from '../core/outbound-url.js';
import { OciRepositoryClient } from '../render/helm/oci-client.js';
import { isOci, parseOciChart } from '../render/helm/oci-reference.js';
import { readTagPages } from './oci-tag-pages.js';

/** One version a chart source offers, with its release date when the source gives one. */
export interface ChartVersion {
  readonly version: string;
  readonly created?: Date;
}

/** The largest index.yaml and tag list read. */
const INDEX_MAX = 32 * 1024 * 1024;
const TAGS_MAX = 4 * 1024 * 1024;
const TIMEOUT_MS = 60_000;

const indexSchema = z.object({
  entries: z.record(
    z.string(),
    z.array(z.object({ version: z.coerce.string(), created: z.unknown().optional() }).loose()),
  ),
});

const tagsSchema = z.object({ tags: z.array(z.string()).nullable() });

/**
 * The versions `repo` offers for chart `name`, as `chart update` would read them: an HTTP
 * repository's `index.yaml` (with each entry's `created` date), or an OCI repository's tag list
 * (`/v2/<repository>/tags/list`, every page the registry links, up to a bound; helm writes `+`
 * as `_` in tags; no dates). No credentials are
 * sent; every hop goes through `checkedFetch` (no loopback unless the process allows it, no
 * link-local or metadata address), bounded in size and time. The versions are the source's words:
 * the caller checks each (`isSafeVersion`) before using it. Throws when the source cannot be read.
 */
export async function listChartVersions(
  key: { repo: string; name: string },
  opts: { policy?: OutboundPolicy } = {},
): Promise<ChartVersion[]> {
  if (isOci(key.repo)) return ociVersions(key, opts);
  const url = new URL('index.yaml', key.repo.endsWith('/') ? key.repo : `${key.repo}/`);
  const response = await checkedFetch(url, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'follow',
    maxRedirects: 5,
    ...(opts.policy ? { policy: opts.policy } : {}),
  });
  if (!response.ok || !response.body) throw new Error(`${url.href}: HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > INDEX_MAX) throw new Error(`${url.href}: larger than ${INDEX_MAX / 1024 / 1024} MiB`);
    chunks.push(Buffer.from(chunk));
  }
  let doc: unknown;
  try {
    doc = jsyaml.load(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error(`${url.href}: not YAML`);
  }
  const parsed = indexSchema.safeParse(doc);
  if (!parsed.success) throw new Error(`${url.href}: not a chart repository index`);
  return (parsed.data.entries[key.name] ?? []).map((e) => {
    const created =
      typeof e.created === 'string' || e.created instanceof Date ? new Date(e.created) : undefined;
    return { version: e.version, ...(created && !Number.isNaN(created.getTime()) ? { created } : {}) };
  });
}

async function ociVersions(
  key: { repo: string; name: string },
  opts: { policy?: OutboundPolicy },
): Promise<ChartVersion[]> {
  const ref = parseOciChart({ repo: key.repo, chart: key.name });
  if ('problem' in ref) throw new Error(`${key.repo}: ${ref.problem}`);
  const client = new OciRepositoryClient(ref, undefined, opts.policy);
  const origin = new URL(`${ref.scheme}//${ref.registry}`).origin;
  const what = `the tags of ${ref.repository}`;
  const tags = await readTagPages(
    async (path) => {
      const { bytes, link } = await client.get(path, {
        accept: 'application/json',
        maxBytes: TAGS_MAX,
        what,
      });
      let doc: unknown;
      try {
        doc = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new Error(`${what}: not JSON`);
      }
      const parsed = tagsSchema.safeParse(doc);
      if (!parsed.success) throw new Error(`${what}: not a tag list`);
      return { tags: parsed.data.tags ?? [], link };
    },
    { origin, repository: ref.repository },
  );
  return tags.map((tag) => ({ version: tag.replace(/_/g, '+') }));
}
