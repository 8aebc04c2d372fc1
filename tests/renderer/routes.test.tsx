import { createRoutesFromChildren, type RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { screenEntries } from '@shared/screens';
import { appRoutes } from '../../src-renderer/app/App';
import { SCREEN_COMPONENTS } from '../../src-renderer/app/screens';

/** Every path of the router's route tree, as declared by its <Route> elements. */
function pathsOf(routes: RouteObject[]): string[] {
  return routes.flatMap((route) => [...(route.path !== undefined ? [route.path] : []), ...pathsOf(route.children ?? [])]);
}

describe('router and screen registry', () => {
  const routed = pathsOf(createRoutesFromChildren(appRoutes()));

  it('gives every <Route> a registry entry (the catch-all aside), and every screen a <Route>', () => {
    const declared = new Set(screenEntries().map((screen) => screen.path));
    expect(routed.filter((path) => path !== '*' && !declared.has(path))).toEqual([]);
    expect(
      screenEntries()
        .map((screen) => screen.path)
        .filter((path) => !routed.includes(path)),
    ).toEqual([]);
    expect(routed.filter((path) => path === '*')).toHaveLength(1);
  });

  it('has a component for each screen and none for a screen the registry does not declare', () => {
    const available = new Set(screenEntries().map((screen) => screen.component));
    expect([...available].filter((key) => !SCREEN_COMPONENTS[key])).toEqual([]);
    expect(Object.keys(SCREEN_COMPONENTS).filter((key) => !available.has(key as never))).toEqual([]);
  });
});
