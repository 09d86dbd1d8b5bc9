// The script tag's banner file (`referral-widget-banner.js`): for a page with the referred
// visitor's banner and no panel (a referral's landing page), the banner alone, in English, with
// the rest of the core it reads; no panel, share buttons or QR code. A page with a panel gets the
// UI file instead, which has the banner too.
import { mountBanner } from '../ui/mount.ts'
import { attachLater } from './attach-later.ts'
import { mountAllOf } from './mount-all.ts'
import { handOver } from './siblings.ts'

handOver('ui', {
  attach: attachLater,
  mountAll: mountAllOf([['[data-referral-banner]', mountBanner]]),
})
