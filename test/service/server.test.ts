// `npm run service` as a process: environment settings, the start-up line, real HTTP.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { recordSignup } from '../../src/server.ts'

const built = existsSync('dist/referral-widget.js')

const running: ChildProcess[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill()
})

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/service/main.ts'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '')
    })
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)))
  })
  firstLine.catch(() => {}) // the test that expects an early exit never awaits it
  return { child, firstLine, output: () => ({ stdout, stderr }) }
}

describe('npm run service', () => {
  it('prints one line with its address and the demo keys, then answers over HTTP', async () => {
    const { firstLine } = start({})
    const line = await firstLine
    expect(line).toMatch(/http:\/\/localhost:\d+/)
    expect(line).toContain('pk_test_acme')
    expect(line).toContain('sk_test_globex')
    const base = /http:\/\/localhost:\d+/.exec(line)?.[0]
    const response = await fetch(`${base}/v1/campaigns`, {
      headers: { Authorization: 'Bearer pk_test_acme' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('ratelimit-limit')).toBe('100')
  })

  it('reads PK_RATE_LIMIT and SK_RATE_LIMIT', async () => {
    const { firstLine } = start({ PK_RATE_LIMIT: '2', SK_RATE_LIMIT: '3' })
    const base = /http:\/\/localhost:\d+/.exec(await firstLine)?.[0]
    const get = (key: string) =>
      fetch(`${base}/v1/campaigns`, { headers: { Authorization: `Bearer ${key}` } })
    const pk = [await get('pk_test_acme'), await get('pk_test_acme'), await get('pk_test_acme')]
    expect(pk.map((r) => r.status)).toEqual([200, 200, 429])
    expect(Number(pk[2]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const sk = [await get('sk_test_acme'), await get('sk_test_acme'), await get('sk_test_acme')]
    expect(sk.map((r) => r.headers.get('ratelimit-limit'))).toEqual(['3', '3', '3'])
    expect((await get('sk_test_acme')).status).toBe(429)
  })

  it('refuses a bad limit with a clear message instead of starting', async () => {
    const { child, output } = start({ PK_RATE_LIMIT: 'lots' })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output().stderr).toContain('PK_RATE_LIMIT must be a whole number of requests per minute')
  })

  it('BASE_PATH=/referral: the API and the script under the prefix, nothing outside it', async () => {
    const { firstLine, output } = start({ BASE_PATH: '/referral' })
    const line = await firstLine
    const base = /http:\/\/localhost:\d+\/referral/.exec(line)?.[0]
    expect(base).toBeDefined()
    const get = (url: string) => fetch(url, { headers: { Authorization: 'Bearer pk_test_acme' } })
    expect((await get(`${base}/v1/campaigns`)).status).toBe(200)
    expect((await get(`${base?.replace('/referral', '')}/v1/campaigns`)).status).toBe(404)
    // The site's backend, over real loopback HTTP: one sign-up, counted once.
    const signup = { secretKey: 'sk_test_acme', apiBase: base ?? '', userId: 'user-loopback' }
    expect((await recordSignup(signup)).status).toBe('accepted')
    expect((await recordSignup(signup)).status).toBe('duplicate')
    const script = await fetch(`${base}/v${pkg.version}/referral-widget.js`)
    if (built) {
      // The tag to paste: this build's own URL, for ever the same file, pinned by its hash.
      const { build } = JSON.parse(readFileSync('dist/build.json', 'utf8')) as { build: string }
      const integrity = JSON.parse(readFileSync('dist/integrity.json', 'utf8')) as Record<
        string,
        string
      >
      await expect
        .poll(() => output().stdout)
        .toContain(
          `<script async src="${base}/v${build}/referral-widget.js" integrity="${integrity['referral-widget.js']}" crossorigin="anonymous" data-key="pk_test_acme"></script>`,
        )
      const own = await fetch(`${base}/v${build}/referral-widget.js`)
      expect(own.status).toBe(200)
      expect(own.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(own.headers.get('cache-control')).toContain('immutable')
      expect(await own.text()).toBe(readFileSync('dist/referral-widget.js', 'utf8'))
      // The version's name serves its current build, never for a year.
      expect(script.status).toBe(200)
      expect(script.headers.get('cache-control')).not.toContain('immutable')
    } else {
      expect(script.status).toBe(404)
      expect(await script.text()).toContain('npm run build')
    }
  })

  it('refuses a BASE_PATH that is not a clean path', async () => {
    const { child, output } = start({ BASE_PATH: '/a/../b' })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output().stderr).toContain('[service] BASE_PATH must be a path such as /referral')
  })
})
