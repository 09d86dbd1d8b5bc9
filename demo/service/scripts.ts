// The built script-tag files, served by the service itself so that `npm run service` alone
// backs a script-tag page, and so that a site can put script and API under one path of its own
// origin. Two names for each file:
//   /referral-widget.js            the current build; cached 5 minutes, so a deploy shows soon
//   /v<version>/referral-widget.js this version, never changing; cached a year, immutable
// The script loads its UI from beside itself, so a versioned script loads the versioned UI.
// Only the names below exist: nothing else under dist/ (or above it) can be asked for.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { MiddlewareHandler } from 'hono'
import { ServiceError } from './errors.ts'
import type { AppEnv } from './http.ts'

export interface ScriptFiles {
  /** The directory holding the built files (the package's dist/). */
  dir: string
  /** The package version the files were built from: the versioned names use it. */
  version: string
}

const FILE =
  /^(referral-widget(?:-(?:tracking|tracking-delivery|delivery|checks|ui|banner|qr|link|cookie|outbound|messages-[a-z]{2}(?:-[a-z]{2})?))?\.js|integrity\.json)$/
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

/** Answers GET and HEAD for the script files; passes every other request on. */
export function scriptFiles(files: ScriptFiles): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
    const path = c.req.path
    const versioned = VERSIONED.exec(path)
    const name = versioned ? versioned[2] : UNVERSIONED.exec(path)?.[1]
    if (name === undefined || !FILE.test(name)) return next()
    if (versioned && versioned[1] !== files.version) {
      throw missing(
        `This service serves version ${files.version} of the script: /v${files.version}/${name}.`,
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
      'Cache-Control': versioned ? IMMUTABLE : SHORT,
      'X-Content-Type-Options': 'nosniff',
    })
  }
}
