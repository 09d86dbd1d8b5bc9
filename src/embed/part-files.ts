// How the tracking part loads the files beside it: beside its script tag, pinned where the tag
// is (each file's hash then comes from the pins file, as the loader's do).
import { loadSibling, type PartName, type Parts } from './siblings.ts'

/** loadSibling beside `script`. */
export const loadPart = <N extends PartName>(
  name: N,
  file: string,
  script: { src: string },
  pinned: boolean,
): Promise<Parts[N]> => loadSibling(name, file, script.src, pinned)
