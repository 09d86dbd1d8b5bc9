// The script tag's checkout file (`referral-widget-checkout.js`): carries the held referral on
// the page's checkout links (src/core/checkout/links.ts), loaded by the tracking part only on a
// page that sets data-checkout and holds a referral. Every other page pays nothing for it.
import { checkoutLinks } from '../core/checkout/links.ts'
import { handOver } from './siblings.ts'

handOver('checkout', { checkoutLinks })
