import type { ServerContext } from '../context';
import { demoWorkspace } from '../demo';
import type { FeatureServices } from '../feature-services';
import { buildFeatures, type Feature } from '../feature-wiring';
import type { Handlers } from '../operations';
import { adminFeature } from './admin';
import { advertMediaFeature } from './advert-media';
import { audienceHistoryFeature } from './audience-history';
import { advertsFeature } from './adverts';
import { audienceDebugFeature, audiencesFeature } from './audiences';
import { authFeature } from './auth';
import { batFeature } from './bat';
import { laboratoryFeature } from './laboratory';
import { importsFeature } from './imports';
import { inventoryFeature } from './inventory';
import { metaFeature } from './meta';
import { projectsFeature } from './projects';
import { presenceFeature } from './presence';
import { pushFeature } from './push';
import { setupFeature } from './setup';
import { storageFeature } from './storage';

/**
 * The server's feature registry: one line per feature (src-server/feature-wiring.ts). Each feature declares the
 * services it needs and provides; they are built in the order that makes (otherwise this one), each handed what it
 * needs. Features never import each other's folders (shared server code lives in src-server/accounts/ and the like).
 */
const FEATURES = [
  authFeature,
  adminFeature,
  metaFeature,
  setupFeature,
  audienceHistoryFeature,
  audiencesFeature,
  storageFeature,
  projectsFeature,
  batFeature,
  advertsFeature,
  advertMediaFeature,
  audienceDebugFeature,
  laboratoryFeature,
  importsFeature,
  inventoryFeature,
  pushFeature,
  presenceFeature,
] as const;

type Listed = (typeof FEATURES)[number];
type HandlersOf<F> = F extends Feature<infer _N, infer _P, infer H> ? H : never;
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
/** Every listed feature's handlers together. */
type AllHandlers = Intersection<HandlersOf<Listed>>;
/** The services the listed features provide. */
type Provided = Pick<FeatureServices, Listed['provides'][number]>;

/**
 * Builds every feature, then seeds the demo workspace when the configuration asks for it (src-server/demo). Typed so that an operation no listed feature answers, or a service no listed feature
 * provides, is a compile error here; a need without its provider or a cycle stops the start (FeatureWiringError).
 */
export async function buildHandlers(context: ServerContext): Promise<{ handlers: Handlers; services: FeatureServices }> {
  // Before the features: its seeding stops on close before they do.
  const demo = demoWorkspace(context);
  const built = await buildFeatures(context, FEATURES);
  const handlers: Handlers = built.handlers as AllHandlers;
  const services: FeatureServices = built.services as Provided;
  await demo.seed(services);
  return { handlers, services };
}
