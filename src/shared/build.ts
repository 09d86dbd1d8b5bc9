// The build the script-tag files belong to, `<version>+<hash of the build's inputs>`, written in by
// scripts/build.mjs. A file runs only beside the loader of its own build (scripts/lib-build/
// runtime-plugins.ts, oneBuild); elsewhere (the ESM package, the tests) it is `dev`.
declare const __BUILD__: string | undefined

export const BUILD = typeof __BUILD__ === 'undefined' ? 'dev' : __BUILD__
