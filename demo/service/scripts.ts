// The built script-tag files, served by the service itself so that `npm run service` alone
// backs a script-tag page, and so that a site can put script and API under one path of its own
// origin. Three names for each file:
//   /v<build>/referral-widget.js   this build (`<version>+<hash>`, dist/build.json), never
//                                  changing; cached a year, immutable: the URL to paste
//   /referral-widget.js            the current build; cached 5 minutes, so a deploy shows soon
//   /v<version>/referral-widget.js the current build of this version, cached 5 minutes too: the
//                                  files a version is built into change until it is released
// The script loads its other files from beside itself, so a versioned script loads its own build.
// Only the names below exist: nothing else under dist/ (or above it) can be asked for.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { MiddlewareHandler } from 'hono'
import { OWN_FILE } from '../../src/shared/trusted-script-url.ts'
import { ServiceError } from './errors.ts'
import type { AppEnv } from './http.ts'

export interface ScriptFiles {
  /** The directory holding the built files (the package's dist/). */
  dir: string
  /** The package version the files were built from: the versioned names use it. */
  version: string
}

/** A script-tag file of the build (the loader or a file beside it), by its name. */
export const isScriptFile = (name: string) => name === 'referral-widget.js' || OWN_FILE.test(name)

/** What the service serves from dist/: the script-tag files, their hashes and the build's id. */
const served = (name: string) =>
  isScriptFile(name) || name === 'integrity.json' || name === 'build.json'
const VERSIONED = /^\/v([0-9A-Za-z.+-]{1,64})\/([^/]+)$/
const UNVERSIONED = /^\/([^/]+)$/

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const SHORT = 'public, max-age=300'

const contentType = (name: string) =>
  name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8'

const missing = (message: string) =>
  new ServiceError(404, 'not_found_error', 'resource_missing', message, undefined, {
    'Cache-Control': 'no-store',
  })

/** The build dist/ holds (dist/build.json), or undefined before one is made. */
export async function builtAs(dir: string): Promise<string | undefined> {
  try {
    const { build } = JSON.parse(await readFile(join(dir, 'build.json'), 'utf8')) as {
      build?: unknown
    }
    return typeof build === 'string' ? build : undefined
  } catch {
    return undefined
  }
}

/** Answers GET and HEAD for the script files; passes every other request on. */
export function scriptFiles(files: ScriptFiles): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const path = c.req.path
    const versioned = VERSIONED.exec(path)
    const name = versioned ? versioned[2] : UNVERSIONED.exec(path)?.[1]
    if (name === undefined || !served(name)) return next()
    const build = versioned && (await builtAs(files.dir))
    if (versioned && versioned[1] !== build && versioned[1] !== files.version) {
      throw missing(
        build
          ? `This service serves build ${build} of the script: /v${build}/${name}.`
          : `${name} is not built: run \`npm run build\` (it writes dist/), then ask again.`,
      )
    }
    let body: Uint8Array
    try {
      body = await readFile(join(files.dir, name))
    } catch {
      throw missing(
        `${name} is not built: run \`npm run build\` (it writes dist/), then ask again.`,
      )
    }
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': contentType(name),
      // Only a build's own name is for ever: a version's files change until it is released.
      'Cache-Control': versioned && versioned[1] === build ? IMMUTABLE : SHORT,
      'X-Content-Type-Options': 'nosniff',
    })
  }
}

/**
 * The script tag a site pastes to run the build in `dir` from `base`: its versioned URL (never
 * changing content) with the Subresource Integrity hash of dist/integrity.json.
 */
export async function pasteLine(dir: string, base: string): Promise<string> {
  const build = await builtAs(dir)
  const integrity = JSON.parse(await readFile(join(dir, 'integrity.json'), 'utf8')) as Record<
    string,
    string
  >
  const src = `${base}/v${build}/referral-widget.js`
  return `<script async src="${src}" integrity="${integrity['referral-widget.js']}" crossorigin="anonymous" data-key="pk_test_acme"></script>`
}
