import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A helm chart repository served over HTTP on loopback; `close` stops it. */
export interface ChartRepositoryServer {
  /** `http://127.0.0.1:<port>`, the `repo` a HelmChart names. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `files` (path below the root, e.g. `index.yaml` or `subchart-0.1.0.tgz`, to a function
 * giving its bytes at request time, so a test can swap what the repository serves) on a free
 * loopback port; any other path answers 404.
 */
export async function serveChartRepository(
  files: Record<string, () => string | Buffer>,
): Promise<ChartRepositoryServer> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    const file = Object.hasOwn(files, name) ? files[name] : undefined;
    if (file) res.end(file());
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done, fail) => server.close((err) => (err ? fail(err) : done()))),
  };
}
