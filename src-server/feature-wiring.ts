import type { ServerContext } from './context';
import type { FeatureServices } from './feature-services';

export type ServiceName = keyof FeatureServices;

/** The services a feature declared it needs, and only those: reading another is a compile error. */
export type Needs<N extends ServiceName> = Pick<FeatureServices, N>;

/** What building a feature gives: its handlers, and the services it declared it provides (all of them). */
export type Built<P extends ServiceName, H> = [P] extends [never] ? { handlers: H } : { handlers: H; provides: Pick<FeatureServices, P> };

/**
 * A server feature (src-server/features/<feature>/index.ts): the services it needs from other features, those it
 * provides them, and how it is built from the former. The registry builds features in the order their needs make
 * (a provider before its users), so a feature's needs are all there when it is built, and never change afterwards.
 */
export interface Feature<N extends ServiceName = ServiceName, P extends ServiceName = ServiceName, H = unknown> {
  readonly name: string;
  readonly needs: readonly N[];
  readonly provides: readonly P[];
  build(context: ServerContext, needs: Needs<N>): Promise<Built<P, H>> | Built<P, H>;
}

/** Declares a feature; `needs` and `provides` are inferred from the lists, so `build` sees exactly what was declared. */
export function defineFeature<const N extends ServiceName = never, const P extends ServiceName = never, H = unknown>(
  feature: Feature<N, P, H>,
): Feature<N, P, H> {
  return feature;
}

/** The wiring is wrong (a need nobody provides, a service provided twice, a cycle): the server does not start. */
export class FeatureWiringError extends Error {
  override name = 'FeatureWiringError';
}

/** Any feature, as the registry holds them (each is built with the needs it declared). */
interface WiredFeature {
  readonly name: string;
  readonly needs: readonly ServiceName[];
  readonly provides: readonly ServiceName[];
  build(context: ServerContext, needs: never): unknown;
}

interface Declared {
  readonly name: string;
  readonly needs: readonly string[];
  readonly provides: readonly string[];
}

/**
 * The order to build features in: each after the providers of what it needs, otherwise in the listed order. Throws,
 * naming them, when a need has no provider, a service has two, or needs form a cycle (`a → b → a`, with the services).
 */
export function buildOrder<F extends Declared>(features: readonly F[]): F[] {
  const providers = new Map<string, F>();
  for (const feature of features) {
    for (const service of feature.provides) {
      const other = providers.get(service);
      if (other) throw new FeatureWiringError(`Service '${service}' is provided by both '${other.name}' and '${feature.name}'.`);
      providers.set(service, feature);
    }
  }
  const ordered: F[] = [];
  const done = new Set<F>();
  const path: { feature: F; through?: string }[] = [];
  const visit = (feature: F, through?: string) => {
    if (done.has(feature)) return;
    const at = path.findIndex((step) => step.feature === feature);
    if (at >= 0) {
      const cycle = [...path.slice(at), { feature, through }].map((step, i) =>
        i === 0 ? step.feature.name : `${step.feature.name} (${step.through})`,
      );
      throw new FeatureWiringError(`Features need each other in a cycle: ${cycle.join(' → ')}.`);
    }
    path.push({ feature, through });
    for (const service of feature.needs) {
      const provider = providers.get(service);
      if (!provider) throw new FeatureWiringError(`Feature '${feature.name}' needs '${service}', which no feature provides.`);
      visit(provider, service);
    }
    path.pop();
    done.add(feature);
    ordered.push(feature);
  };
  for (const feature of features) visit(feature);
  return ordered;
}

/**
 * Builds the features in their order, handing each the services it declared it needs, and checks that each
 * provided what it declared (no more) and that no two answer the same operation.
 */
export async function buildFeatures(
  context: ServerContext,
  features: readonly WiredFeature[],
): Promise<{ handlers: Record<string, unknown>; services: Partial<FeatureServices> }> {
  const services: Partial<Record<ServiceName, unknown>> = {};
  const handlers: Record<string, unknown> = {};
  for (const feature of buildOrder(features)) {
    const needs = Object.fromEntries(feature.needs.map((service) => [service, services[service]]));
    const built = (await feature.build(context, needs as never)) as { handlers: object; provides?: object };
    const provided = Object.keys(built.provides ?? {}).sort();
    if (provided.join() !== [...feature.provides].sort().join()) {
      throw new FeatureWiringError(
        `Feature '${feature.name}' declared it provides [${feature.provides.join(', ')}] but gave [${provided.join(', ')}].`,
      );
    }
    Object.assign(services, built.provides);
    for (const [operation, handler] of Object.entries(built.handlers)) {
      if (operation in handlers) throw new FeatureWiringError(`Operation '${operation}' is answered by two features (one is '${feature.name}').`);
      handlers[operation] = handler;
    }
  }
  return { handlers, services: services as Partial<FeatureServices> };
}
