// `oci://` chart references, as helm and Flux spell them: parsed and confined without any I/O.

/** An OCI chart: where its registry is, its repository there, and the tag its version is pushed as. */
export interface OciChartRef {
  /** `oci://host[:port]/path`: the parent repository, as the lock file keys it. */
  readonly repo: string;
  /** The chart's name: the last component of the repository. */
  readonly name: string;
  /** `host[:port]`, lowercase. */
  readonly registry: string;
  /** The repository in the registry: `path/name` (what `/v2/<repository>/...` names). */
  readonly repository: string;
  /** `http:` for a loopback registry only (helm's `--plain-http`), `https:` for every other host. */
  readonly scheme: 'http:' | 'https:';
}

/** A reference that is refused, with why and what to write instead. */
export interface OciRefProblem {
  readonly problem: string;
  readonly fix: string;
}

/** One path component of an OCI repository name (the distribution spec's grammar). */
const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
/** A DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port. */
const AUTHORITY =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:]+\])(?::\d{1,5})?$/;
/** The distribution spec's limit on a repository name. */
const NAME_MAX = 255;

/** Whether `ref` is spelled as an OCI reference (`oci://...`, any case). Pure. */
export function isOci(ref: string | undefined): boolean {
  return ref !== undefined && /^oci:\/\//i.test(ref);
}

/**
 * Parses an OCI chart as helm and Flux spell it: `chart: 'oci://host/path/name'` alone, or
 * `repo: 'oci://host/path'` with `chart: 'name'`. Refuses, naming why: credentials in the URL
 * (Groundwork pulls anonymously), a query or fragment, a tag or digest in the URL (the version is
 * `version`, the digest is the lock file's), uppercase, `.`/`..`, empty or percent-encoded path
 * components, anything outside the distribution spec's name grammar, and a port past 65535.
 * Pure: resolves no name and reads nothing.
 */
export function parseOciChart(key: { repo?: string; chart: string }): OciChartRef | OciRefProblem {
  const full = key.repo === undefined ? key.chart : `${key.repo.replace(/\/$/, '')}/${key.chart}`;
  if (key.repo !== undefined && !/^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/.test(key.chart))
    return {
      problem: 'with an oci:// repo, chart is the chart name in it (lowercase letters, digits, . _ -)',
      fix: 'name the chart, e.g. repo: oci://ghcr.io/org/charts, chart: podinfo',
    };
  const m = /^oci:\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i.exec(full);
  if (!m) return { problem: 'is not an oci:// reference', fix: 'write it as oci://host/path/name' };
  const [, authority = '', path = '', rest] = m;
  if (!full.startsWith('oci://'))
    return { problem: 'the scheme must be written oci:// (lowercase)', fix: 'write oci://host/path/name' };
  if (authority.includes('@'))
    return {
      problem: 'must not hold credentials: Groundwork pulls charts anonymously and keeps no registry secret',
      fix: 'remove user:password@ (public charts need none; vendor a private chart into the repository with helm pull --untar)',
    };
  if (rest !== undefined)
    return { problem: 'must not have a query or fragment', fix: 'write oci://host/path/name' };
  if (!AUTHORITY.test(authority) || Number(/:(\d+)$/.exec(authority)?.[1] ?? '1') > 65535)
    return {
      problem: `has no valid registry host (${authority ? 'lowercase host[:port]' : 'it is empty'})`,
      fix: 'write oci://host[:port]/path/name, e.g. oci://ghcr.io/org/charts/podinfo',
    };
  const components = path.replace(/^\//, '').split('/');
  const last = components.at(-1) ?? '';
  if (/[:@]/.test(last))
    return {
      problem:
        'must not carry a tag or digest: the version is the version prop, the digest is pinned in groundwork-charts.lock.yaml',
      fix: 'drop :tag / @sha256:... from the URL, set version, and run groundwork chart lock',
    };
  if (path === '' || path === '/' || components.some((c) => !COMPONENT.test(c)))
    return {
      problem:
        'has a path that is not an OCI repository name (lowercase letters, digits and . _ - between /; no empty, . or .. components, no %)',
      fix: 'write oci://host/path/name as helm push printed it',
    };
  const repository = components.join('/');
  if (repository.length > NAME_MAX)
    return { problem: `has a repository name longer than ${NAME_MAX} characters`, fix: 'use a shorter path' };
  const registry = authority.toLowerCase();
  return {
    repo: `oci://${[registry, ...components.slice(0, -1)].join('/')}`,
    name: last,
    registry,
    repository,
    scheme: isLoopbackHost(hostOf(registry)) ? 'http:' : 'https:',
  };
}

/** The tag helm pushes a chart version as: `+` is not allowed in a tag, helm writes `_`. Pure. */
export function ociTag(version: string): string {
  return version.replaceAll('+', '_');
}

/** The URL of the registry's API for a repository: `<scheme>//<registry>/v2/<repository>/`. Pure. */
export function ociApiBase(ref: OciChartRef): URL {
  return new URL(`${ref.scheme}//${ref.registry}/v2/${ref.repository}/`);
}

/** The host of `host[:port]` or `[v6]:port`, without brackets. Pure. */
export function hostOf(authority: string): string {
  const v6 = /^\[([^\]]+)\]/.exec(authority);
  return v6 ? v6[1]! : authority.replace(/:\d+$/, '');
}

/** `localhost`, 127.0.0.0/8 and ::1: the hosts plain http is allowed for. Pure. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
