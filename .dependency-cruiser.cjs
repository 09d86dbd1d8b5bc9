// The import direction of src/ (`npm run check:imports`, run in CI). Imports run one way:
// shared → api → queue → core → ui → entry files. A module may import from its own layer and the
// layers before it, never from one after it; no import cycle anywhere; nothing in src/ reaches
// into demo/ (the local service and its zod schemas are not part of the package).

/** The layers, in the order imports may run, each as a path pattern. */
const LAYERS = [
  ['shared', '^src/shared/'],
  ['api', '^src/api/'],
  ['queue', '^src/queue/'],
  ['core', '^src/core/'],
  ['ui', '^src/ui/'],
  [
    'entry',
    '^src/(embed/|server/|(embed|index|headless|components|custom-element|custom-element-preact|custom-element-react|react|server)\\.tsx?$)',
  ],
]

/** One rule per layer: it imports nothing from a layer that comes after it. */
const upward = LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `${name}-imports-no-later-layer`,
  comment: `${name} comes before ${LAYERS.slice(index + 1)
    .map(([later]) => later)
    .join(', ')}: an import from there runs back up the layers.`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(index + 1).map(([, later]) => later) },
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-cycles',
      comment: 'Modules that import each other cannot be loaded, tested or split apart alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-demo-from-src',
      comment: 'demo/ (the local service, its zod schemas, the workbench) is not published.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^demo/' },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'A new folder or entry in src/ must be given its place in LAYERS.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
  ],
  options: {
    // The widget's own modules; tests may import across layers (harness, service, fixtures).
    includeOnly: '^(src|demo)/',
    exclude: { path: '\\.(test|test-d|fuzz\\.test)\\.tsx?$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from a later layer ties the layers together as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
