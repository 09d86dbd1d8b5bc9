// The published files, one build per mode:
//   esm   dist/index.js, dist/custom-element.js  (the package; dependencies left to the host)
//   embed dist/referral-widget.js                 (the script tag; one classic script, all inside)
//   ui    dist/referral-widget-ui.js              (the script tag's panel, fetched only when needed;
//                                                   a classic script too, so no CORS is needed)
import { defineConfig, type UserConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]
const jsx = { runtime: 'automatic', importSource: 'preact' } as const

const builds: Record<string, UserConfig['build']> = {
  esm: {
    target: 'es2020',
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: 'src/index.ts', 'custom-element': 'src/custom-element.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
    },
  },
  embed: {
    target: 'es2020',
    lib: {
      entry: 'src/embed.ts',
      formats: ['iife'],
      name: 'ReferralWidget',
      fileName: () => 'referral-widget.js',
    },
  },
  ui: {
    target: 'es2020',
    lib: {
      entry: 'src/ui/embed-ui.ts',
      formats: ['iife'],
      name: 'ReferralWidgetUi',
      fileName: () => 'referral-widget-ui.js',
    },
  },
}

export default defineConfig(({ mode }) => {
  const build = builds[mode]
  if (!build) throw new Error(`Unknown build mode "${mode}": use esm, embed or ui.`)
  return {
    oxc: { jsx },
    // The script-tag files run as they are in any page: no bundler will replace this later.
    ...(mode === 'esm' ? {} : { define: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    publicDir: false,
    build: { ...build, outDir: 'dist', emptyOutDir: false },
  }
})
