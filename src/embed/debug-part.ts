// The script tag's explaining file (`referral-widget-debug.js`): the precise checks of the tag's
// attributes (each refusal in a sentence), the decisions in words and diagnose(). The tracking
// part loads it only when an attribute is refused, in debug mode, or on a diagnose() call, so a
// tag written right, out of debug mode, never downloads the sentences.
import { debugFile } from '../core/debug/index.ts'
import { precise } from './attribute-checks.ts'
import { handOver } from './siblings.ts'

handOver('debug', { ...debugFile, precise })
