// Unpacks the Chromium that the @sparticuz/chromium package ships (brotli files in its bin/) once
// per package version into <root>/referral-widget-chromium-<version>/, and reuses it afterwards.
//
// The unpack goes into a fresh sibling directory that is renamed into place only when complete,
// so two workers or two runs at once never write over a binary another one is executing (ETXTBSY)
// and never see half a directory. A directory is reused only when its marker names this package
// version and this layout; anything else there is moved aside and replaced.
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createBrotliDecompress } from 'node:zlib'
import { extract, type Headers } from 'tar-fs'

/** Raised when the package's files cannot be unpacked; the half-written directory is removed. */
export class ChromiumUnpackError extends Error {
  override readonly name = 'ChromiumUnpackError'
  constructor(
    readonly source: string,
    readonly target: string,
    override readonly cause: unknown,
  ) {
    super(
      `[referral] could not unpack ${source} into ${target}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    )
  }
}

/**
 * Changes whenever what this module writes changes, so a directory unpacked by an older layout
 * of the same package version is not reused.
 */
export const LAYOUT = 1
export const MARKER = 'unpacked.txt'

export interface UnpackOptions {
  /** The package's bin/ directory: chromium.br, al2023.tar.br, fonts.tar.br. */
  binDir: string
  /** The package's version; it names the directory and is written in its marker. */
  version: string
  /** Where the per-version directory goes (the suite uses os.tmpdir()). */
  root: string
}

export interface UnpackedChromium {
  dir: string
  executablePath: string
  /** The NSS and expat libraries the binary links against, for LD_LIBRARY_PATH. */
  libraryPath: string
  /** A directory holding fonts.conf (Open Sans from the package, then the system's fonts). */
  fontConfigPath: string
  /** False when this call unpacked; true when an earlier unpack was found and reused. */
  reused: boolean
}

const markerText = (version: string) => `@sparticuz/chromium ${version} layout ${LAYOUT}\n`

export const unpackedDir = (root: string, version: string) =>
  join(root, `referral-widget-chromium-${version}`)

function layoutOf(dir: string, reused: boolean): UnpackedChromium {
  return {
    dir,
    executablePath: join(dir, 'chromium'),
    libraryPath: join(dir, 'al2023', 'lib'),
    fontConfigPath: dir,
    reused,
  }
}

async function markerMatches(dir: string, version: string): Promise<boolean> {
  try {
    return (await readFile(join(dir, MARKER), 'utf8')) === markerText(version)
  } catch {
    return false
  }
}

const uniqueSuffix = () => `${process.pid}-${randomBytes(4).toString('hex')}`

/** The fonts Chromium may use: the package's Open Sans, so text renders on a machine without any
 * font, then whatever the system has (Arabic and Japanese panels need more than Open Sans). */
const fontsConf = (dir: string) => `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${join(dir, 'fonts')}</dir>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <cachedir>${join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`

async function inflateFile(source: string, target: string) {
  await pipeline(createReadStream(source), createBrotliDecompress(), createWriteStream(target))
  await chmod(target, 0o755)
}

/** Files are owned by whoever unpacks them, not by the archive's users (tar-fs keeps those when
 * run as root). */
const ownedByUs = (header: Headers): Headers => ({
  ...header,
  uid: process.getuid?.() ?? header.uid,
  gid: process.getgid?.() ?? header.gid,
})

async function inflateTar(source: string, target: string) {
  await pipeline(
    createReadStream(source),
    createBrotliDecompress(),
    extract(target, { map: ownedByUs }),
  )
}

/** Everything into `staging`, paths in fonts.conf already pointing at `finalDir`. */
async function unpackInto(staging: string, finalDir: string, options: UnpackOptions) {
  await mkdir(staging, { recursive: true })
  const parts = [
    ['chromium.br', 'chromium', inflateFile],
    ['al2023.tar.br', 'al2023', inflateTar],
    ['fonts.tar.br', 'fonts', inflateTar],
  ] as const
  // Settled, not raced: a failed part must not leave the others writing into a directory that is
  // about to be removed.
  const results = await Promise.allSettled(
    parts.map(([file, target, inflate]) =>
      inflate(join(options.binDir, file), join(staging, target)).catch((error: unknown) => {
        throw new ChromiumUnpackError(join(options.binDir, file), staging, error)
      }),
    ),
  )
  for (const result of results) if (result.status === 'rejected') throw result.reason
  await writeFile(join(staging, 'fonts.conf'), fontsConf(finalDir))
  // Written last: a directory with this marker is complete.
  await writeFile(join(staging, MARKER), markerText(options.version))
}

const isCode = (error: unknown, ...codes: string[]) =>
  error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? '')

/** Unpacks the package's Chromium unless a complete unpack of this version is already there. */
export async function unpackChromium(options: UnpackOptions): Promise<UnpackedChromium> {
  const dir = unpackedDir(options.root, options.version)
  if (await markerMatches(dir, options.version)) return layoutOf(dir, true)

  await mkdir(options.root, { recursive: true })
  const staging = `${dir}.unpacking-${uniqueSuffix()}`
  try {
    await unpackInto(staging, dir, options)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }

  // Rename into place. If something is already there, it is either another process's complete
  // unpack (use it) or a stale one (move it aside, try again).
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await rename(staging, dir)
      return layoutOf(dir, false)
    } catch (error) {
      if (!isCode(error, 'ENOTEMPTY', 'EEXIST')) {
        await rm(staging, { recursive: true, force: true })
        throw error
      }
    }
    if (await markerMatches(dir, options.version)) {
      await rm(staging, { recursive: true, force: true })
      return layoutOf(dir, true)
    }
    const stale = `${dir}.stale-${uniqueSuffix()}`
    try {
      await rename(dir, stale)
    } catch (error) {
      // Another process moved it first.
      if (!isCode(error, 'ENOENT')) throw error
    }
    await rm(stale, { recursive: true, force: true })
  }
  await rm(staging, { recursive: true, force: true })
  throw new ChromiumUnpackError(options.binDir, dir, new Error('the directory kept changing'))
}
