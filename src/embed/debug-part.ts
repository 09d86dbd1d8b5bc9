// The script tag's debug file (`referral-widget-debug.js`): the decisions in words and
// diagnose(), loaded by the tracking part only in debug mode or on a diagnose() call.
import { debugFile } from '../core/debug/index.ts'
import { handOver } from './siblings.ts'

handOver('debug', debugFile)
