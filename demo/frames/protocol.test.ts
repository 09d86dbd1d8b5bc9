import { describe, expect, it } from 'vitest'
import { originsOf, otherHostName } from './protocol.ts'

const at = (href: string) => {
  const { protocol, hostname, origin } = new URL(href)
  return { protocol, hostname, origin }
}
const PORTS = { main: 5173, visitor: 5174 }

describe('the demo’s origins', () => {
  it('pairs localhost and 127.0.0.1, and nothing else', () => {
    expect(otherHostName('localhost')).toBe('127.0.0.1')
    expect(otherHostName('127.0.0.1')).toBe('localhost')
    expect(otherHostName('192.168.1.20')).toBeNull()
    expect(otherHostName('[::1]')).toBeNull()
  })

  it.each([
    ['localhost', 'http://127.0.0.1:5174'],
    ['127.0.0.1', 'http://localhost:5174'],
  ])('from the demo page on %s: the shop on its own name, the app on the other', (host, app) => {
    for (const page of [`http://${host}:5173/`, `http://${host}:5174/demo/visitor.html`]) {
      expect(originsOf(at(page), PORTS)).toEqual({
        main: `http://${host}:5173`,
        visitor: `http://${host}:5174`,
        app,
      })
    }
  })

  it('from the app’s page, the demo page and the shop are under the other name', () => {
    expect(originsOf(at('http://127.0.0.1:5174/demo/app.html'), PORTS, true)).toEqual({
      main: 'http://localhost:5173',
      visitor: 'http://localhost:5174',
      app: 'http://127.0.0.1:5174',
    })
  })

  it('no app under a name that has no twin, and neither without a second origin', () => {
    expect(originsOf(at('http://192.168.1.20:5173/'), PORTS)).toEqual({
      main: 'http://192.168.1.20:5173',
      visitor: 'http://192.168.1.20:5174',
      app: null,
    })
    expect(originsOf(at('http://localhost:5173/'), { main: 5173, visitor: 0 })).toEqual({
      main: 'http://localhost:5173',
      visitor: null,
      app: null,
    })
    expect(originsOf(at('http://localhost:5173/'), {})).toEqual({
      main: 'http://localhost:5173',
      visitor: null,
      app: null,
    })
  })
})
