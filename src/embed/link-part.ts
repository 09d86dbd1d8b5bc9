// The script tag's link file (`referral-widget-link.js`): the rest of the core (campaign, the
// referrer's link, banner state, stores) for a page without a panel that calls getLink() or
// identify(). A page with a panel gets the same from its UI file instead.
import { attachLater } from './attach-later.ts'
import { handOver } from './siblings.ts'

handOver('link', { attach: attachLater })
