// The published files, one build per mode:
//   esm   dist/index.js, dist/headless.js        (the package; dependencies left to the host),
//         one file per module, so a bundler keeps only the modules an app imports
//   element dist/custom-element.js               (the custom element, likewise: no peer to install
//                                                  in a React, Vue or plain app)
//   react dist/react.js                          (the React entry: its UI and Preact bundled in,
//                                                  the core imported from the esm files, so it
//                                                  shares cores with the other entries)
//   server dist/server.js                         (referral-widget/server: one file, no
//                                                  dependency, for Node, Deno, Bun and edge)
//   embed dist/referral-widget.js                 (the script tag: the loader, one classic script;
//                                                  built last, it carries the pins file's hash)
//   tracking dist/referral-widget-tracking.js     (the tracking part: capture, visitor id, events
//                                                  stored, option checks; loaded by the loader when
//                                                  a page has work)
//   delivery dist/referral-widget-delivery.js     (what sends the queue: loaded by the tracking part
//                                                  when there is something to send)
//   checks dist/referral-widget-checks.js         (the precise checks of the tag's attributes: loaded
//                                                  by the tracking part when one is refused)
//   debug dist/referral-widget-debug.js           (the decisions in words and diagnose(): loaded by
//                                                  the tracking part in debug mode or on diagnose())
//   tracking-delivery dist/referral-widget-tracking-delivery.js (the two in one, for a page with
//                                                  something to send at once: an arrival, events
//                                                  stored)
//   pins  dist/referral-widget-pins.js            (the hash of each file the loader and the tracking
//                                                  part load, for a tag pinned by SRI: fetched
//                                                  first on such a page only; built after them)
//   qr    dist/referral-widget-qr.js              (the QR encoder, fetched by the panel only when
//                                                   its QR code control is used; built before the
//                                                   UI files, which carry its SRI hash)
//   cookie dist/referral-widget-cookie.js         (the attribution cookie's module, for a page that
//                                                  sets data-cookie-domain: fetched before tracking)
//   outbound dist/referral-widget-outbound.js     (the hand-off to the site's other domains, for a
//                                                  page that sets data-outbound: fetched before
//                                                  tracking)
//   launcher dist/referral-widget-launcher.js     (the launcher, the site's own buttons and the
//                                                  prompt after sign-up: fetched by the loader)
//   link  dist/referral-widget-link.js            (the rest of the core, for a page without a panel
//                                                  that calls getLink(): fetched on that call)
//   messages-xx dist/referral-widget-messages-xx.js (one language's messages for the UI file,
//                                                   fetched beside it for a page in that language;
//                                                   built before it, which carries their hashes)
//   ui    dist/referral-widget-ui.js              (the script tag's panel, English built in, fetched
//                                                   only when needed; a classic script too, so no
//                                                   CORS is needed)
//   banner dist/referral-widget-banner.js         (the referred visitor's banner alone, for a page
//                                                   with a banner and no panel)
// The options of the simpler modes are in scripts/lib-build/modes.ts; the plugins that keep one
// core on a page in scripts/lib-build/runtime-plugins.ts; those that shape the panel's files in
// scripts/lib-build/ui-plugins.ts.
import { defineConfig } from 'vite'
import { keepClientDirective } from './scripts/lib-build/client-directive.ts'
import { builds, jsx } from './scripts/lib-build/modes.ts'
import {
  coreFromEsmBuild,
  deliveryBuiltIn,
  fromRuntime,
  LOADER_RUNTIME,
  oneBuild,
  publishRuntime,
  TRACKING_RUNTIME,
} from './scripts/lib-build/runtime-plugins.ts'
import { squeeze } from './scripts/lib-build/squeeze.ts'
import {
  compactStyles,
  englishOnly,
  messagesOf,
  qrFromScript,
} from './scripts/lib-build/ui-plugins.ts'

/** The files loaded after the tracking part read what it and the loader published. */
const afterTracking = [fromRuntime(TRACKING_RUNTIME), fromRuntime(LOADER_RUNTIME)]

/** The build the script-tag files belong to (scripts/build.mjs): `<version>+<hash of inputs>`. */
const BUILD = process.env.REFERRAL_BUILD ?? 'dev'
/** What every script-tag file is built with: production code, and the build it belongs to. */
const scriptTagDefines = {
  'process.env.NODE_ENV': JSON.stringify('production'),
  __BUILD__: JSON.stringify(BUILD),
}

export default defineConfig(({ mode }) => {
  const messagesLanguage = /^messages-([a-z]{2}(?:-[A-Z]{2})?)$/.exec(mode)?.[1]
  if (messagesLanguage) {
    return {
      plugins: [messagesOf(messagesLanguage), oneBuild(BUILD), squeeze()],
      define: scriptTagDefines,
      publicDir: false,
      build: {
        target: 'es2022',
        lib: {
          entry: 'src/embed/messages-part.ts',
          formats: ['iife'],
          name: 'ReferralWidgetMessages',
          fileName: () => `referral-widget-messages-${messagesLanguage.toLowerCase()}.js`,
        },
        outDir: 'dist',
        emptyOutDir: false,
      },
    }
  }
  if (mode === 'ui' || mode === 'banner') {
    return {
      oxc: { jsx },
      plugins: [
        englishOnly(),
        qrFromScript(),
        ...afterTracking,
        compactStyles(),
        oneBuild(BUILD),
        squeeze(),
      ],
      define: {
        ...scriptTagDefines,
        // The QR file's and the messages files' hashes (scripts/build.mjs builds them first);
        // without one, a script tag loaded with integrity does not load that file at all.
        __REFERRAL_QR_INTEGRITY__: JSON.stringify(process.env.REFERRAL_QR_INTEGRITY ?? ''),
        __MESSAGES_INTEGRITY__: process.env.MESSAGES_INTEGRITY ?? '{}',
      },
      publicDir: false,
      build: {
        ...builds.ui,
        lib: {
          entry: `src/embed/${mode}-part.ts`,
          formats: ['iife'],
          name: 'ReferralWidgetUi',
          fileName: () => `referral-widget-${mode}.js`,
        },
        outDir: 'dist',
        emptyOutDir: false,
      },
    }
  }
  const build = builds[mode]
  if (!build)
    throw new Error(
      `Unknown build mode "${mode}": use esm, react, element, server, qr, messages-<language>, ui, banner, launcher, cookie, outbound, link, checks, debug, delivery, tracking, tracking-delivery, pins or embed.`,
    )
  // The pins file's hash (the loader's) and the hashes it carries, computed by scripts/build.mjs
  // from the files built before them.
  const pinsHash = mode === 'embed' ? JSON.stringify(process.env.PINS_INTEGRITY ?? '') : undefined
  const pins = mode === 'pins' ? (process.env.PINS ?? '{}') : undefined
  const scriptTag = !['esm', 'react', 'element', 'server'].includes(mode)
  return {
    oxc: { jsx },
    plugins: [
      ...({
        esm: [keepClientDirective()],
        react: [coreFromEsmBuild(), keepClientDirective()],
        element: [coreFromEsmBuild()],
        link: afterTracking,
        cookie: afterTracking,
        outbound: afterTracking,
        checkout: afterTracking,
        delivery: afterTracking,
        checks: afterTracking,
        debug: afterTracking,
        pins: [fromRuntime(LOADER_RUNTIME)],
        launcher: [fromRuntime(LOADER_RUNTIME), compactStyles()],
        tracking: [fromRuntime(LOADER_RUNTIME), publishRuntime(TRACKING_RUNTIME)],
        'tracking-delivery': [
          deliveryBuiltIn(),
          fromRuntime(LOADER_RUNTIME),
          publishRuntime(TRACKING_RUNTIME),
        ],
        embed: [publishRuntime(LOADER_RUNTIME)],
      }[mode] ?? []),
      ...(scriptTag && mode !== 'embed' ? [oneBuild(BUILD)] : []),
      ...(scriptTag ? [squeeze()] : []),
    ],
    // The script-tag files run as they are in any page: no bundler will replace this later.
    ...(!scriptTag
      ? {}
      : {
          define: {
            ...scriptTagDefines,
            ...(pinsHash === undefined ? {} : { __PINS_INTEGRITY__: pinsHash }),
            ...(pins === undefined ? {} : { __PINS__: pins }),
          },
        }),
    publicDir: false,
    build: { ...build, outDir: 'dist', emptyOutDir: false },
  }
})
