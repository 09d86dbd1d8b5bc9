// A Next.js App Router app in a temporary folder, built with `next build` against the built package
// (installed as scripts/consumers.mjs lays it out) and served by `next start` on loopback.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { consumerDir } from '../../../scripts/consumers.mjs'

const PACKAGES = {
  next: 'next',
  react: 'react',
  'react-dom': 'react-dom',
  typescript: 'typescript',
  '@types/react': '@types/react',
  '@types/react-dom': '@types/react-dom',
  '@types/node': '@types/node',
}

// node_modules links to this repository's copies, outside the app's folder: Turbopack reads
// files only under its root, so the root is the file system's. Types are checked by
// test/examples.test.ts, under stricter settings than Next's own.
const NEXT_CONFIG = `export default {
  turbopack: { root: '/' },
  outputFileTracingRoot: '/',
  typescript: { ignoreBuildErrors: true },
}
`

/** Next's own environment: production, no telemetry (nothing leaves the machine). */
const env = () => ({ ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' })

export interface NextApp {
  url: string
  /** What `next build` and `next start` printed. */
  output: string[]
  close(): Promise<void>
}

/** Runs a command of Next's CLI in `dir`, collecting what it prints, until it exits. */
function next(dir: string, args: string[], output: string[]): ChildProcess {
  const child = spawn(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), ...args], {
    cwd: dir,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n')))
  return child
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })

/** A port free on loopback now (Next's start takes a number, not 0). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** Builds the app made of `files` (by path: app/page.tsx, app/layout.tsx…) and starts it. */
export async function startNextApp(files: Record<string, string>): Promise<NextApp> {
  const dir = consumerDir(PACKAGES)
  const output: string[] = []
  let server: ChildProcess | undefined
  const close = async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM')
      await exited(server)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    writeFileSync(join(dir, 'package.json'), '{ "name": "shop", "private": true }\n')
    writeFileSync(join(dir, 'next.config.mjs'), NEXT_CONFIG)
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    const built = await exited(next(dir, ['build'], output))
    if (built !== 0) throw new Error(`next build failed:\n${output.join('\n')}`)

    const port = await freePort()
    server = next(dir, ['start', '--hostname', '127.0.0.1', '--port', String(port)], output)
    const started = server
    // Ready once it says so; an exit before that is a failure.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.some((line) => /\bReady\b/.test(line))) resolve()
      }
      started.stdout?.on('data', check)
      check()
      void exited(started).then((code) =>
        reject(new Error(`next start exited (${code}):\n${output.join('\n')}`)),
      )
    })
    return { url: `http://127.0.0.1:${port}`, output, close }
  } catch (error) {
    await close()
    throw error
  }
}
