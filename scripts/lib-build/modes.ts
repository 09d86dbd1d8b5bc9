// The build options of the modes that need no more than options (vite.lib.config.ts lists what
// each mode writes); `ui` and `messages-<language>` add theirs in the config itself.
import type { UserConfig } from 'vite'
import pkg from '../../package.json' with { type: 'json' }

const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`))
// Production JSX whatever NODE_ENV the build runs under (the browser suite builds under vitest's
// NODE_ENV=test, which would otherwise add source locations to every element).
export const jsx = { runtime: 'automatic', importSource: 'preact', development: false } as const

export const builds: Record<string, UserConfig['build']> = {
  esm: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        headless: 'src/headless.ts',
        // Whole, for dist/custom-element.js (built apart, it imports the attribute table from here).
        'core/options': 'src/core/options.ts',
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: isExternal,
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
  },
  // Built apart from the esm entries so that it shares no chunk with them: one self-contained
  // module an edge runtime can load, and the browser entries' chunks stay as they are.
  server: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: { entry: { server: 'src/server.ts' }, formats: ['es'] },
  },
  react: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: { entry: { react: 'src/react.ts' }, formats: ['es'] },
    rollupOptions: { external: ['react', ...external.filter((name) => name !== 'preact')] },
  },
  element: {
    target: 'es2022',
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        'custom-element': 'src/custom-element.ts',
        // These two import the element from dist/custom-element.js (coreFromEsmBuild).
        'custom-element-react': 'src/custom-element-react.ts',
        'custom-element-preact': 'src/custom-element-preact.ts',
      },
      formats: ['es'],
    },
    rollupOptions: { external: external.filter((name) => name !== 'preact') },
  },
  embed: {
    target: 'es2022',
    lib: {
      entry: 'src/embed.ts',
      formats: ['iife'],
      name: 'ReferralWidget',
      fileName: () => 'referral-widget.js',
    },
  },
  pins: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/pins-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetPins',
      fileName: () => 'referral-widget-pins.js',
    },
  },
  checks: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/checks-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetChecks',
      fileName: () => 'referral-widget-checks.js',
    },
  },
  debug: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/debug-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetDebug',
      fileName: () => 'referral-widget-debug.js',
    },
  },
  delivery: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/delivery-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetDelivery',
      fileName: () => 'referral-widget-delivery.js',
    },
  },
  tracking: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/tracking-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetTracking',
      fileName: () => 'referral-widget-tracking.js',
    },
  },
  'tracking-delivery': {
    target: 'es2022',
    lib: {
      entry: 'src/embed/tracking-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetTracking',
      fileName: () => 'referral-widget-tracking-delivery.js',
    },
  },
  qr: {
    target: 'es2022',
    lib: {
      entry: 'src/ui/qr/embed-qr.ts',
      formats: ['iife'],
      name: 'ReferralWidgetQr',
      fileName: () => 'referral-widget-qr.js',
    },
  },
  cookie: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/cookie-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetCookie',
      fileName: () => 'referral-widget-cookie.js',
    },
  },
  outbound: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/outbound-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetOutbound',
      fileName: () => 'referral-widget-outbound.js',
    },
  },
  checkout: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/checkout-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetCheckout',
      fileName: () => 'referral-widget-checkout.js',
    },
  },
  launcher: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/launcher-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetLauncher',
      fileName: () => 'referral-widget-launcher.js',
    },
  },
  link: {
    target: 'es2022',
    lib: {
      entry: 'src/embed/link-part.ts',
      formats: ['iife'],
      name: 'ReferralWidgetLink',
      fileName: () => 'referral-widget-link.js',
    },
  },
  ui: {
    target: 'es2022',
  },
}
