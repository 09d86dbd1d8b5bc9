// The script tag's delivery file (`referral-widget-delivery.js`): what sends the queue (the send
// pass, the sender lock, the backoff the tabs share, the page-hide beacon), loaded by the tracking
// part when there is something to send, and fetched beside it by the loader when the page arrives
// with work (a referral in the address, events stored). A page with a panel and nothing to send
// never loads it.
import { createSending } from '../queue/sending.ts'
import { handOver } from './siblings.ts'

handOver('delivery', { createSending })
