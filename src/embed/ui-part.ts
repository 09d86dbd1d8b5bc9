// The script tag's UI file (`referral-widget-ui.js`): loaded only when the page has a panel
// (fetched by the loader beside the tracking part, run once the part asks). It carries the panel
// and the banner, in English, with the rest of the core they read (campaign, link, stores); a
// page in another built-in language gets that language's messages file from beside it. It loads
// the QR file beside it when the QR control is used. (A page with a banner alone gets the
// smaller banner file, banner-part.ts.)
import { pageDialog } from '../ui/dialog/mount.ts'
import { mountBanner, mountPanel } from '../ui/mount.ts'
import { configureQrScript } from '../ui/qr/load-script.ts'
import { attachLater } from './attach-later.ts'
import { mountAllOf, ownSrc } from './mount-all.ts'
import { handOver } from './siblings.ts'

// The panel as a dialog too, for open() and prompt(), the launcher and the site's own buttons.
const mountPanels = mountAllOf(
  [
    ['[data-referral-widget]', mountPanel],
    ['[data-referral-banner]', mountBanner],
  ],
  pageDialog,
)

handOver('ui', {
  attach: attachLater,
  mountAll(referral, options) {
    configureQrScript({ base: ownSrc, sri: options.integrity })
    return mountPanels(referral, options)
  },
})
