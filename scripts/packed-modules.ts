import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What electron-builder packs of node_modules into the desktop app: the production dependency tree
 * (`npm ls --omit=dev --all`, as electron-builder collects it) less the `files` exclusions of electron-builder.yml
 * (`!**\/node_modules/<name>/**`). Computed rather than packed: packing needs Electron's binary.
 * `tsx scripts/packed-modules.ts` prints the size; tests/build checks the exclusions.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

interface TreeNode {
  name?: string;
  path?: string;
  dependencies?: Record<string, TreeNode>;
}

export interface PackedModules {
  /** Every package of the production tree: name → folder. */
  all: Map<string, string>;
  /** Those no exclusion names. */
  packed: Map<string, string>;
  /** Those the desktop app's kept packages reach (following package dependencies from the non-excluded roots). */
  reachable: Set<string>;
  bytes(paths: Iterable<string>): number;
}

/** The package names electron-builder.yml leaves out of the app, as regular expressions. */
export function excludedPatterns(): RegExp[] {
  const config = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
  return [...config.matchAll(/^\s*-\s*'!\*\*\/node_modules\/(.+?)\/\*\*'\s*$/gm)].map(
    // The folder itself and what lies under it: `@aws-sdk` names every package of that scope.
    (match) => new RegExp(`^${match[1].replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`),
  );
}

/** Size of a package's own files (its nested node_modules are packages of their own). */
function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' && entry.isDirectory()) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

export function packedModules(): PackedModules {
  const tree = JSON.parse(
    execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  ) as TreeNode;
  const excluded = excludedPatterns();
  const isExcluded = (name: string) => excluded.some((pattern) => pattern.test(name));
  const all = new Map<string, string>();
  // Package folder → its dependencies' folders by name, over every place the tree shows it (npm shows a shared
  // package's dependencies once).
  const children = new Map<string, Map<string, string>>();
  const walk = (node: TreeNode) => {
    for (const child of Object.values(node.dependencies ?? {})) {
      if (!child.path || !child.name) continue;
      all.set(relative(root, child.path), child.path);
      if (node.path) (children.get(node.path) ?? children.set(node.path, new Map()).get(node.path)!).set(child.name, child.path);
      walk(child);
    }
  };
  walk(tree);
  // Only dependencies and optional dependencies load with a package: a peer is another package's dependency (the
  // API reference is fastify-type-provider-zod's peer, for its types and an optional transform).
  const reachable = new Set<string>();
  const visit = (path: string) => {
    if (reachable.has(path)) return;
    reachable.add(path);
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const child = children.get(path)?.get(name);
      if (child) visit(child);
    }
  };
  for (const [name, child] of Object.entries(tree.dependencies ?? {})) if (child.path && !isExcluded(name)) visit(child.path);
  // A folder is left out when any package folder on its path is (`**/node_modules/@aws-sdk/**` takes the packages
  // nested in @aws-sdk's own node_modules too).
  const leftOut = (key: string) => key.split('node_modules/').some((part) => part && isExcluded(part.replace(/\/$/, '')));
  const packed = new Map([...all].filter(([key]) => !leftOut(key)));
  const bytes = (paths: Iterable<string>) => [...new Set(paths)].reduce((sum, path) => sum + folderBytes(path), 0);
  return { all, packed, reachable, bytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const modules = packedModules();
  const megabytes = (paths: Iterable<string>) => `${(modules.bytes(paths) / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `Packed node_modules of the desktop app (computed): ${megabytes(modules.packed.values())} in ${modules.packed.size} packages ` +
      `(production tree ${megabytes(modules.all.values())} in ${modules.all.size}; electron-builder.yml leaves out the rest)`,
  );
}
