// The script tag's outbound file (`referral-widget-outbound.js`): the hand-off to the site's other
// domains, loaded before tracking starts on a page that sets data-outbound, so that links to
// those hosts are decorated from the start and `Referral.decorate` answers from its first call.
import { outboundLinks } from '../core/outbound.ts'
import { handOver } from './siblings.ts'

handOver('outbound', { outboundLinks })
