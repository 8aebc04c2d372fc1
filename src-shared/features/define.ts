import { audienceReaders, projectReaders } from '../access-rules';
import type { Access } from '../roles';

/** The dropdowns of the top navigation; a dropdown sits where its first entry is placed. */
export const MENUS = {
  projects: { label: 'Projets', access: projectReaders },
  audiences: { label: 'Audiences', access: audienceReaders },
} as const satisfies Record<string, { label: string; access: Access }>;
export type MenuId = keyof typeof MENUS;

export interface NavPlace {
  label: string;
  /**
   * Place in the top bar, left to right (spec §2 "Top navigation"): entries come from several feature manifests,
   * so their order is stated rather than taken from the order of the files.
   */
  position: number;
  /** Under this dropdown; top level when absent. */
  menu?: MenuId;
  /** Who sees the entry; the screen's `access` when absent. */
  access?: Access;
}

export interface ScreenEntry {
  kind: 'screen';
  /** Also the key of the screen's component in the renderer's feature manifest, unless `component` names another. */
  id: string;
  /** Route pattern, `:name` for a parameter (react-router syntax). */
  path: string;
  /** Who may open it; `public` screens are outside the signed-in shell. */
  access: Access;
  /** The renderer component key: the screen's id, or another screen's when both show the same component. */
  component: string;
  /**
   * Addresses of this screen that need more than `access` (an editor's create address, `/adverts/edit/new`: only
   * who may create), checked by the guard; the route stays one, so the editor is not remounted once it has saved.
   */
  stricter?: readonly { path: string; access: Access }[];
  nav?: NavPlace;
  /** Where a user lands after sign-in once this screen exists (spec §2 Login page: /adverts). */
  landing?: boolean;
}

/** An external tool of the top navigation; shown once the settings key holds its address. */
export interface ExternalLinkEntry {
  kind: 'link';
  id: string;
  label: string;
  access: Access;
  setting: 'shortUrlServiceUrl' | 'appCreationToolUrl';
  /** Place in the top bar, as `NavPlace.position`. */
  position: number;
}

export type RegistryEntry = ScreenEntry | ExternalLinkEntry;

/**
 * A screen entry that remembers its component key as a literal type, under a key of its own: a manifest's
 * `screens` list is typed as RegistryEntry[], which would widen `component` to string if the literal lived there.
 */
// A type-only property (no value ever holds it), named by a string so that declaration files can spell it.
type KeyedScreenEntry<Component extends string> = ScreenEntry & { readonly componentKeyType?: Component };

/** The literal component key of a manifest entry (never for an external link). */
export type ComponentKeyOf<Entry> = Entry extends { readonly componentKeyType?: infer Component } ? NonNullable<Component> : never;

export const screen = <const Id extends string, const Component extends string = Id>(
  entry: Omit<ScreenEntry, 'kind' | 'id' | 'component'> & { id: Id; component?: Component },
): KeyedScreenEntry<Component> => ({
  kind: 'screen',
  ...entry,
  component: entry.component ?? entry.id,
});

/**
 * What a feature declares to the shared registries, in one place (src-shared/features/<feature>.ts): its screens
 * (the renderer's src-renderer/features/<folder>/screens.ts gives their components), its user-facing texts, and
 * the file formats of its upload operations. Free of zod, so the renderer may import it: the operations
 * themselves are in src-shared/contract/<feature>.ts (a renderer value import of those would bundle zod).
 */
export interface FeatureManifest {
  id: string;
  screens?: readonly RegistryEntry[];
  /** The feature's message modules (texts, notices), as src-shared/messages/<feature>.ts exports them. */
  messages?: readonly object[];
  /**
   * Extensions each upload operation accepts: the same list as the operation's `multipart.formats`, which the
   * server and main check (tests/unit/storage-rules.test.ts keeps them equal); the web host's file picker reads
   * it here. Keyed by operation id, checked by the compiler against the contract.
   */
  uploads?: Readonly<Partial<Record<UploadOperationId, readonly string[]>>>;
}

/** An operation of the contract (type only: the renderer's bundle takes no zod schema from it). */
type UploadOperationId = import('../contract').OperationId;

export const defineFeature = <const Manifest extends FeatureManifest>(manifest: Manifest): Manifest => manifest;
