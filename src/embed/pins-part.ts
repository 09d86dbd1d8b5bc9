// The script tag's pins file (`referral-widget-pins.js`): the Subresource Integrity hash of each
// file the loader and the tracking part load beside them. The loader carries this file's hash
// alone and asks for it once, on a page whose tag is pinned by SRI, before the first file it
// pins; an unpinned page never downloads a hash, and a pinned one checks every file it runs.
import { handOver } from './siblings.ts'

/** Filled in by the build (scripts/build.mjs), from the files it built before this one. */
declare const __PINS__: Record<string, string>

handOver('pins', { hashes: __PINS__ })
