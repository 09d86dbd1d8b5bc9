// The script tag's outbound file (`referral-widget-outbound.js`): the hand-off between the site's
// domains, loaded before tracking starts on a page that sets data-outbound, so that links to
// those hosts are decorated from the start and `Referral.decorate` answers from its first call;
// and on a page that a hand-off reached (in its address, or in an arrival kept for it), to read
// it. A referred arrival without one pays for neither.
import { handoffArrival } from '../api/handoff.ts'
import { outboundLinks } from '../core/outbound.ts'
import { handOver } from './siblings.ts'

handOver('outbound', { outboundLinks, handoffArrival })
