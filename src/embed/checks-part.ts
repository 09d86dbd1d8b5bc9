// The script tag's checks file (`referral-widget-checks.js`): the precise checks of the tag's
// attributes, each refusal in a sentence. The tracking part reads its tag quietly and loads this
// only when something was refused, so a tag written right never downloads the sentences.
import { precise } from './attribute-checks.ts'
import { handOver } from './siblings.ts'

handOver('checks', { precise })
