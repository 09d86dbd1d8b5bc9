// The script tag's cookie file (`referral-widget-cookie.js`): the attribution cookie's module,
// loaded before tracking starts on a page that sets data-cookie-domain, so the referral captured
// on one subdomain is adopted on another exactly as if the tracking part carried it.
import { attributionCookie } from '../core/attribution-cookie.ts'
import { handOver } from './siblings.ts'

handOver('cookie', { sharedCookie: attributionCookie })
