// How the tracking part loads the files beside it. The loader carries the hashes of what it loads
// itself (the tracking parts, the UI file); this part carries those of the files only it loads
// (delivery, link, cookie, outbound, debug), so a quiet page downloads none of them.
import { loadSibling, type PartName, type Parts } from './siblings.ts'

/** Subresource Integrity hashes of the files only this part loads; filled in by the build. */
declare const __PART_INTEGRITY__: Record<string, string> | undefined
const HASHES: Record<string, string> =
  typeof __PART_INTEGRITY__ === 'undefined' ? {} : __PART_INTEGRITY__

/** loadSibling beside `script`, with this part's hash where the loader carries none. */
export const loadPart = <N extends PartName>(
  name: N,
  file: string,
  script: { src: string },
  pinned: boolean,
): Promise<Parts[N]> => loadSibling(name, file, script.src, pinned, HASHES[file])
