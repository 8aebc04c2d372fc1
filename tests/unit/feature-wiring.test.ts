import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src-server/context';
import { buildFeatures, buildOrder, defineFeature, FeatureWiringError } from '../../src-server/feature-wiring';

/** Only what the order reads: a name, the services needed and those provided. */
const feature = (name: string, needs: string[] = [], provides: string[] = []) => ({ name, needs, provides });
const names = (features: { name: string }[]) => features.map((f) => f.name);

describe('the order server features are built in', () => {
  it('builds each provider before the features that need it, otherwise keeps the listed order', () => {
    const order = buildOrder([
      feature('auth'),
      feature('push', ['population']),
      feature('adverts', ['membership'], ['advertsForUser']),
      feature('debug', ['membership', 'advertsForUser']),
      feature('audiences', ['history'], ['membership', 'population']),
      feature('history', [], ['history']),
      feature('presence'),
    ]);
    expect(names(order)).toEqual(['auth', 'history', 'audiences', 'push', 'adverts', 'debug', 'presence']);
  });

  it('keeps the listed order when no feature needs another', () => {
    expect(names(buildOrder([feature('c'), feature('a'), feature('b')]))).toEqual(['c', 'a', 'b']);
  });

  it('stops the start naming the need that no feature provides', () => {
    const wiring = [feature('adverts', [], ['advertWrites']), feature('push', ['population'])];
    expect(() => buildOrder(wiring)).toThrow(FeatureWiringError);
    expect(() => buildOrder(wiring)).toThrow("Feature 'push' needs 'population', which no feature provides.");
  });

  it('stops the start naming the features of a cycle and the services through which they need each other', () => {
    const wiring = [
      feature('auth'),
      feature('audiences', ['advertsForUser'], ['membership']),
      feature('adverts', ['membership'], ['advertsForUser']),
    ];
    expect(() => buildOrder(wiring)).toThrow('Features need each other in a cycle: audiences → adverts (advertsForUser) → audiences (membership).');
    expect(() => buildOrder([feature('alone', ['itself'], ['itself'])])).toThrow('Features need each other in a cycle: alone → alone (itself).');
  });

  it('refuses a service provided by two features', () => {
    expect(() => buildOrder([feature('a', [], ['population']), feature('b', [], ['population'])])).toThrow(
      "Service 'population' is provided by both 'a' and 'b'.",
    );
  });
});

describe('building features', () => {
  const context = {} as ServerContext;

  it('hands each feature exactly the services it declared, once their providers are built', async () => {
    const seen: string[][] = [];
    const version = () => 7;
    const lab = defineFeature({
      name: 'laboratory',
      needs: ['populationVersion'],
      provides: [],
      build: (_context, needs) => {
        seen.push(Object.keys(needs));
        // @ts-expect-error: a service the feature did not declare is not there to read.
        void needs.population;
        return { handlers: { 'lab.count': () => needs.populationVersion() } };
      },
    });
    const engine = defineFeature({
      name: 'audiences',
      needs: [],
      provides: ['populationVersion', 'rebuildAudienceEngine'],
      build: () => ({ handlers: {}, provides: { populationVersion: version, rebuildAudienceEngine: async () => undefined } }),
    });
    const built = await buildFeatures(context, [lab, engine]);
    expect(seen).toEqual([['populationVersion']]);
    expect((built.handlers['lab.count'] as () => number)()).toBe(7);
    expect(built.services.populationVersion).toBe(version);
  });

  it('refuses a feature that does not provide what it declared', async () => {
    const liar = defineFeature({
      name: 'audiences',
      needs: [],
      provides: ['populationVersion'],
      // @ts-expect-error: what a feature declares it provides, it gives.
      build: () => ({ handlers: {}, provides: {} }),
    });
    await expect(buildFeatures(context, [liar])).rejects.toThrow("Feature 'audiences' declared it provides [populationVersion] but gave [].");
  });

  it('refuses two features answering the same operation', async () => {
    const one = defineFeature({ name: 'one', needs: [], provides: [], build: () => ({ handlers: { 'x.get': () => 1 } }) });
    const two = defineFeature({ name: 'two', needs: [], provides: [], build: () => ({ handlers: { 'x.get': () => 2 } }) });
    await expect(buildFeatures(context, [one, two])).rejects.toThrow("Operation 'x.get' is answered by two features (one is 'two').");
  });
});
