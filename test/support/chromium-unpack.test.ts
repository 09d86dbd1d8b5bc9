// The browser suite's Chromium is unpacked once per package version and reused; these tests run
// the unpacker on a small stand-in for the package's bin/ directory in a temporary directory.
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { brotliCompressSync, createBrotliCompress } from 'node:zlib'
import { pack } from 'tar-fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChromiumUnpackError, MARKER, unpackChromium, unpackedDir } from './chromium-unpack.ts'

let work: string
let binDir: string
let root: string

/** A directory's files, packed as tar then brotli, the way the package ships its archives. */
async function tarBr(files: Record<string, string>, target: string) {
  const source = mkdtempSync(join(work, 'src-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(source, name, '..'), { recursive: true })
    writeFileSync(join(source, name), text)
  }
  await pipeline(pack(source), createBrotliCompress(), createWriteStream(target))
}

async function fakePackage(binaryText: string) {
  mkdirSync(binDir, { recursive: true })
  writeFileSync(join(binDir, 'chromium.br'), brotliCompressSync(binaryText))
  await tarBr({ 'lib/libnss3.so': 'nss' }, join(binDir, 'al2023.tar.br'))
  await tarBr(
    { 'fonts.conf': '<fontconfig/>', 'fonts/Open_Sans/OpenSans-Regular.ttf': 'font' },
    join(binDir, 'fonts.tar.br'),
  )
}

const binaryIn = (dir: string) => readFileSync(join(dir, 'chromium'), 'utf8')

beforeEach(async () => {
  work = mkdtempSync(join(tmpdir(), 'chromium-unpack-test-'))
  binDir = join(work, 'package', 'bin')
  root = join(work, 'tmp')
  await fakePackage('#!/bin/sh\necho chromium 147\n')
})

afterEach(() => rmSync(work, { recursive: true, force: true }))

describe('unpackChromium', () => {
  it('unpacks the binary, its libraries and fonts into a per-version directory', async () => {
    const unpacked = await unpackChromium({ binDir, version: '147.0.0', root })

    expect(unpacked.reused).toBe(false)
    expect(unpacked.dir).toBe(join(root, 'referral-widget-chromium-147.0.0'))
    expect(binaryIn(unpacked.dir)).toBe('#!/bin/sh\necho chromium 147\n')
    expect(statSync(unpacked.executablePath).mode & 0o111).toBe(0o111)
    expect(readFileSync(join(unpacked.libraryPath, 'libnss3.so'), 'utf8')).toBe('nss')
    const conf = readFileSync(join(unpacked.fontConfigPath, 'fonts.conf'), 'utf8')
    expect(conf).toContain(`<dir>${join(unpacked.dir, 'fonts')}</dir>`)
    expect(
      readFileSync(join(unpacked.dir, 'fonts/fonts/Open_Sans/OpenSans-Regular.ttf'), 'utf8'),
    ).toBe('font')
    expect(readFileSync(join(unpacked.dir, MARKER), 'utf8')).toContain('147.0.0')
    // No staging directory is left beside it.
    expect(readdirSync(root)).toEqual(['referral-widget-chromium-147.0.0'])
  })

  it('reuses an earlier unpack of the same version without reading the package again', async () => {
    await unpackChromium({ binDir, version: '147.0.0', root })
    const before = statSync(join(unpackedDir(root, '147.0.0'), 'chromium'))
    rmSync(binDir, { recursive: true })

    const again = await unpackChromium({ binDir, version: '147.0.0', root })

    expect(again.reused).toBe(true)
    const after = statSync(again.executablePath)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
  })

  it('unpacks a new version into its own directory, leaving the old one alone', async () => {
    await unpackChromium({ binDir, version: '147.0.0', root })
    await fakePackage('#!/bin/sh\necho chromium 148\n')

    const newer = await unpackChromium({ binDir, version: '148.0.0', root })

    expect(newer.reused).toBe(false)
    expect(binaryIn(newer.dir)).toBe('#!/bin/sh\necho chromium 148\n')
    expect(binaryIn(unpackedDir(root, '147.0.0'))).toBe('#!/bin/sh\necho chromium 147\n')
  })

  it.each([
    ['a marker of another version', '@sparticuz/chromium 146.0.0 layout 1\n'],
    ['a marker of an older layout', '@sparticuz/chromium 147.0.0 layout 0\n'],
    ['no marker', undefined],
  ])('replaces a directory with %s', async (_, marker) => {
    const dir = unpackedDir(root, '147.0.0')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'chromium'), 'an old binary')
    writeFileSync(join(dir, 'leftover'), 'from before')
    if (marker !== undefined) writeFileSync(join(dir, MARKER), marker)

    const unpacked = await unpackChromium({ binDir, version: '147.0.0', root })

    expect(unpacked.reused).toBe(false)
    expect(binaryIn(dir)).toBe('#!/bin/sh\necho chromium 147\n')
    expect(readdirSync(dir)).not.toContain('leftover')
    expect(readdirSync(root)).toEqual(['referral-widget-chromium-147.0.0'])
  })

  it('lets unpacks that run at once end with one complete directory, unpacked by one of them', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => unpackChromium({ binDir, version: '147.0.0', root })),
    )

    expect(results.filter((result) => !result.reused)).toHaveLength(1)
    expect(new Set(results.map((result) => result.executablePath)).size).toBe(1)
    expect(binaryIn(unpackedDir(root, '147.0.0'))).toBe('#!/bin/sh\necho chromium 147\n')
    expect(readdirSync(root)).toEqual(['referral-widget-chromium-147.0.0'])
  })

  it('names the archive that cannot be unpacked and leaves nothing behind', async () => {
    writeFileSync(join(binDir, 'fonts.tar.br'), 'not brotli')

    const attempt = unpackChromium({ binDir, version: '147.0.0', root })

    await expect(attempt).rejects.toThrow(ChromiumUnpackError)
    await expect(attempt).rejects.toMatchObject({ source: join(binDir, 'fonts.tar.br') })
    expect(readdirSync(root)).toEqual([])
  })
})
