// First-party hosting: the service under a path prefix of the site's origin, serving the built
// script files itself (demo/service/scripts.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ServiceOptionError } from '../../demo/service/app.ts'
import { IMMUTABLE, pasteLine, SHORT } from '../../demo/service/scripts.ts'
import { recordSignup } from '../../src/server.ts'
import { DEMO_CAMPAIGNS, errorOf, setup } from './helpers.ts'

const dist = mkdtempSync(join(tmpdir(), 'referral-dist-'))
const FILES = {
  'referral-widget.js': '/* script */',
  'referral-widget-ui.js': '/* ui en */',
  'referral-widget-messages-ja.js': '/* messages ja */',
  'integrity.json': '{"referral-widget.js":"sha384-x"}',
  'build.json': '{"version":"1.2.3","build":"1.2.3+0badc0de"}',
}
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dist, name), text)
// Beside the built files, never to be served.
writeFileSync(join(dist, 'secret.txt'), 'not for the web')
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const VERSION = '1.2.3'
const BUILD = '1.2.3+0badc0de'
const hosted = (basePath?: string) =>
  setup({
    ...(basePath === undefined ? {} : { basePath }),
    scripts: { dir: dist, version: VERSION },
  })

describe('BASE_PATH: the service under a prefix', () => {
  it('answers /referral/v1/... exactly as /v1/... without one', async () => {
    const { call } = hosted('/referral')
    const campaigns = await call<{ data: unknown[] }>('GET', '/referral/v1/campaigns', {
      key: 'pk_test_acme',
    })
    expect(campaigns.status).toBe(200)
    expect(campaigns.body.data.length).toBe(1)
    expect(campaigns.headers.get('ratelimit-limit')).toBe('100')
    const link = await call('POST', '/referral/v1/links', {
      key: 'pk_test_acme',
      body: { campaignId: DEMO_CAMPAIGNS.acme, referrerId: 'user-1' },
    })
    expect(link.status).toBe(201)
    // The contract's errors keep their shape, and name the path as asked.
    const unknown = await call('GET', '/referral/v1/nothing', { key: 'pk_test_acme' })
    expect(unknown.status).toBe(404)
    expect(errorOf(unknown)).toMatchObject({
      code: 'route_missing',
      message: 'No route GET /referral/v1/nothing.',
    })
    const wrongMethod = await call('DELETE', '/referral/v1/events', { key: 'pk_test_acme' })
    expect(wrongMethod.status).toBe(405)
  })

  it('nothing answers outside the prefix, and every answer is readable cross-origin', async () => {
    const { call } = hosted('/referral')
    for (const path of ['/v1/campaigns', '/referralx/v1/campaigns', '/referral-widget.js', '/']) {
      const answer = await call('GET', path, {
        key: 'pk_test_acme',
        headers: { Origin: 'https://shop.test' },
      })
      expect(answer.status, path).toBe(404)
      expect(errorOf(answer).code, path).toBe('route_missing')
      expect(answer.headers.get('access-control-allow-origin'), path).toBe('*')
    }
  })

  it('a CORS preflight under the prefix answers as the contract says', async () => {
    const { call } = hosted('/referral')
    const answer = await call('OPTIONS', '/referral/v1/events', {
      headers: {
        Origin: 'https://shop.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Referral-User-Token',
    )
    expect(answer.headers.get('access-control-max-age')).toBe('86400')
  })

  it('a trailing slash is dropped; a prefix that is not a clean path is refused', () => {
    expect(() => hosted('/referral/')).not.toThrow()
    for (const bad of ['referral', '/a/../b', '/./x', '/a b', '/a//b', '/ref?x=1', '//']) {
      expect(() => hosted(bad), bad).toThrow(ServiceOptionError)
      expect(() => hosted(bad), bad).toThrow(/basePath must be a path such as \/referral/)
    }
  })

  it('recordSignup with apiBase https://site/referral reaches the mounted service', async () => {
    const { service } = hosted('/referral')
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
      service.app.fetch(new Request(input, init), {
        incoming: { socket: { remoteAddress: '127.0.0.1' } },
      })
    const options = {
      secretKey: 'sk_test_acme',
      apiBase: 'https://shop.test/referral',
      userId: 'user-9',
      fetch,
    }
    expect((await recordSignup(options)).status).toBe('accepted')
    expect((await recordSignup(options)).status).toBe('duplicate')
  })
})

describe('the script files', () => {
  for (const basePath of ['', '/referral']) {
    describe(basePath ? `under ${basePath}` : 'without a prefix', () => {
      it('serves each built file with its content type; unversioned names for 5 minutes', async () => {
        const { call } = hosted(basePath)
        for (const [name, text] of Object.entries(FILES)) {
          const answer = await call('GET', `${basePath}/${name}`, {
            headers: { Origin: 'https://shop.test' },
          })
          expect(answer.status, name).toBe(200)
          expect(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)).toBe(
            text,
          )
          expect(answer.headers.get('content-type'), name).toBe(
            name.endsWith('.json')
              ? 'application/json; charset=utf-8'
              : 'text/javascript; charset=utf-8',
          )
          expect(answer.headers.get('cache-control'), name).toBe(SHORT)
          expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff')
          // As a CDN does: a page may load it with integrity="…" crossorigin="anonymous".
          expect(answer.headers.get('access-control-allow-origin'), name).toBe('*')
        }
      })

      it('serves /v<build>/… for a year, immutable; /v<version>/… for 5 minutes; any other is 404', async () => {
        const { call } = hosted(basePath)
        const own = await call('GET', `${basePath}/v${BUILD}/referral-widget-messages-ja.js`)
        expect(own.status).toBe(200)
        expect(own.body).toBe(FILES['referral-widget-messages-ja.js'])
        expect(own.headers.get('cache-control')).toBe(IMMUTABLE)
        // The version's files change until it is released: never cached for a year.
        const version = await call('GET', `${basePath}/v${VERSION}/referral-widget.js`)
        expect(version.status).toBe(200)
        expect(version.headers.get('cache-control')).toBe(SHORT)
        for (const other of ['9.9.9', '1.2.3+ffffffff']) {
          const answer = await call('GET', `${basePath}/v${other}/referral-widget.js`)
          expect(answer.status, other).toBe(404)
          expect(errorOf(answer).message).toBe(
            `This service serves build ${BUILD} of the script: /v${BUILD}/referral-widget.js.`,
          )
          expect(answer.headers.get('cache-control')).toBe('no-store')
        }
      })

      it('HEAD answers the same headers without a body', async () => {
        const { call } = hosted(basePath)
        const answer = await call('HEAD', `${basePath}/referral-widget.js`)
        expect(answer.status).toBe(200)
        expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
        expect(answer.body).toBeUndefined()
      })

      it('refuses every other name and every way out of the directory', async () => {
        const { call } = hosted(basePath)
        for (const path of [
          '/secret.txt',
          '/package.json',
          '/referral-widget.js.map',
          '/referral-widget-ui-de.js',
          '/referral-widget-messages-xx-yyy.js',
          `/v${VERSION}/secret.txt`,
          '/..%2fpackage.json',
          '/%2e%2e/package.json',
          '/..%2F..%2Fetc%2Fpasswd',
          `/v${VERSION}/..%2f..%2fpackage.json`,
          '/referral-widget.js%00.txt',
          '/REFERRAL-WIDGET.JS',
          '/assets/referral-widget.js',
        ]) {
          const answer = await call('GET', `${basePath}${path}`)
          expect(answer.status, path).toBe(404)
          expect(JSON.stringify(answer.body), path).not.toContain('not for the web')
        }
      })
    })
  }

  it('a file not built yet: 404 saying how to build it, never cached', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'referral-empty-'))
    try {
      const { call } = setup({ basePath: '/referral', scripts: { dir: empty, version: VERSION } })
      const answer = await call('GET', '/referral/referral-widget.js')
      expect(answer.status).toBe(404)
      expect(errorOf(answer)).toMatchObject({
        code: 'resource_missing',
        message:
          'referral-widget.js is not built: run `npm run build` (it writes dist/), then ask again.',
      })
      expect(answer.headers.get('cache-control')).toBe('no-store')
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })

  it('says which tag to paste: the build’s own URL, pinned by its hash', async () => {
    expect(await pasteLine(dist, 'https://shop.test/referral')).toBe(
      `<script async src="https://shop.test/referral/v${BUILD}/referral-widget.js" integrity="sha384-x" crossorigin="anonymous" data-key="pk_test_acme"></script>`,
    )
  })

  it('without the scripts option the service serves no file (the API alone)', async () => {
    const { call } = setup()
    expect((await call('GET', '/referral-widget.js')).status).toBe(404)
  })
})
