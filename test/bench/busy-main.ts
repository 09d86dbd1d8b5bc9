// `npm run bench:busy`: the busy pages alone (busy-pages.ts), printed; `npm run bench` runs them too.
import { busyPages, busyTable } from './busy-pages.ts'

const busy = await busyPages()
process.stdout.write('\n\n')
console.log(busyTable(busy))
