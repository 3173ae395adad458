import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { z } from 'zod';
import { validateProps } from '../../render/synth/validation.js';
import { dnsLabel, goDuration } from './schemas.js';

export interface CatalogSourceProps {
  /** @default the construct id */
  readonly name?: string;
  /** @default 'openshift-marketplace' */
  readonly namespace?: string;
  /** Index image serving the catalog over grpc (prefer a digest). */
  readonly image: string;
  /** @default the name */
  readonly displayName?: string;
  readonly publisher?: string;
  /** Higher wins when several catalogs offer a package. @default 0 */
  readonly priority?: number;
  /** How often OLM polls the image for updates, as a Go duration (`10m`, `1h30m`). @default no polling */
  readonly pollInterval?: string;
}

const schema = z.object({
  name: dnsLabel.optional(),
  namespace: dnsLabel.optional(),
  image: z.string().min(1, 'an index image is required'),
  displayName: z.string().optional(),
  publisher: z.string().optional(),
  priority: z.number().int().optional(),
  pollInterval: goDuration.optional(),
});

/**
 * An OLM CatalogSource of type grpc. Pass it to `PlatformOperator({ catalog })` to install from it.
 *
 * @example
 * const cat = new CatalogSource(platform, 'internal', { image: 'registry.example.com/index@sha256:…', pollInterval: '30m' });
 */
export class CatalogSource extends Construct {
  readonly catalogName: string;
  readonly catalogNamespace: string;

  constructor(scope: Construct, id: string, props: CatalogSourceProps) {
    super(scope, id);
    this.catalogName = props.name ?? id;
    this.catalogNamespace = props.namespace ?? 'openshift-marketplace';
    const p = validateProps(this, schema, props, {
      pollInterval: 'use a Go duration such as 10m, 1h or 1h30m',
      name: 'use lowercase letters, digits and "-" (a DNS label)',
    });
    if (!p) return;
    new ApiObject(this, 'Resource', {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'CatalogSource',
      metadata: { name: this.catalogName, namespace: this.catalogNamespace },
      spec: {
        sourceType: 'grpc',
        image: p.image,
        displayName: p.displayName ?? this.catalogName,
        ...(p.publisher ? { publisher: p.publisher } : {}),
        ...(p.priority !== undefined ? { priority: p.priority } : {}),
        ...(p.pollInterval ? { updateStrategy: { registryPoll: { interval: p.pollInterval } } } : {}),
      },
    });
  }
}
