// The layer and feature-face rules of docs/architecture.md ("The four layers", "Where the import rules are
// checked") as ESLint rules, so the editor shows a crossing while it is typed. tests/unit/layers.test.ts keeps
// checking the same rules on resolved paths (and that they can fail); this file only reads import strings.
// typescript-eslint's no-restricted-imports is the core rule plus `allowTypeImports`.

const layer = (name) => ({ regex: `(^|/)${name}(/|$)`, message: `docs/architecture.md: this layer may not import ${name}.` });
const packages = (regex, what) => ({ regex, message: `docs/architecture.md: ${what} does not belong in this layer.` });

/** What each layer may not import: other layers (by relative path) and the packages of other runtimes. */
const LAYERS = {
  'src-shared': [
    layer('src-server'),
    layer('src-main'),
    layer('src-preload'),
    layer('src-renderer'),
    packages('^(node:|electron$|fastify|drizzle|pg$|undici|react)', 'a runtime package (Node, Electron, server, React)'),
  ],
  'src-server': [layer('src-main'), layer('src-preload'), layer('src-renderer'), packages('^(electron$|react)', 'Electron or React')],
  'src-main': [
    layer('src-preload'),
    layer('src-renderer'),
    // Main starts the embedded server and prints what it started, nothing more of the server.
    {
      regex: '(^|/)src-server/(?!(server(\\.ts)?|embedded|console)$)',
      message: 'docs/architecture.md: main reaches src-server only through server.ts, embedded.ts and console.',
    },
    packages('^react', 'React'),
  ],
  'src-preload': [layer('src-server'), layer('src-main'), layer('src-renderer'), packages('^(node:|react|undici|keytar)', 'a Node or main package')],
  'src-renderer': [
    layer('src-server'),
    layer('src-main'),
    layer('src-preload'),
    packages('^(node:|electron$|keytar|undici|fastify|pg$|drizzle|fs$|path$|child_process$)', 'a Node, Electron or server package'),
    // Values of these modules are zod schemas: a screen takes their types only, so no bundle ships zod.
    {
      regex: '^@shared/(contract|ipc)$',
      allowTypeImports: true,
      message: 'docs/architecture.md: the renderer takes only types from the contract and the IPC map.',
    },
  ],
};

/**
 * Another feature only through its face (its folder or its index.ts), and in the renderer never app/: for a file
 * `depth` folders below features/, `../` × depth reaches features/, one more reaches the layer.
 */
function featureFaces(name, depth) {
  const up = '\\.\\./'.repeat(depth);
  const rules = [
    {
      regex: `^${up}[^./][^/]*/(?!index$).+`,
      message: 'docs/architecture.md, Adding a feature: another feature only through its index.ts.',
    },
  ];
  if (name === 'src-renderer')
    rules.push({ regex: `^${up}\\.\\./app(/|$)`, message: 'docs/architecture.md: features do not import the shell (app/).' });
  return rules;
}

const rule = (patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });

export const layerRules = Object.entries(LAYERS).flatMap(([name, patterns]) => [
  { files: [`${name}/**/*.{ts,tsx}`], ignores: ['src-renderer/vite.config.ts'], rules: rule(patterns) },
  ...(name === 'src-server' || name === 'src-renderer'
    ? [1, 2, 3, 4].map((depth) => ({
        files: [`${name}/features/${'*/'.repeat(depth)}*.{ts,tsx}`],
        rules: rule([...patterns, ...featureFaces(name, depth)]),
      }))
    : []),
  ...(name === 'src-main'
    ? [
        {
          files: ['src-main/services/**/*.ts'],
          rules: rule([
            ...patterns,
            { regex: '^electron(/|$)', message: 'docs/architecture.md: main services run under plain Node, without Electron.' },
          ]),
        },
      ]
    : []),
]);
