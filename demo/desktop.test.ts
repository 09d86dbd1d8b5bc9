import { describe, expect, it } from 'vitest'
import { hasDesktop } from './desktop.ts'

describe('hasDesktop (whether npm start opens a browser)', () => {
  it.each([
    ['a Linux server or container, no display', 'linux', {}, false],
    ['Linux with an X11 display', 'linux', { DISPLAY: ':0' }, true],
    ['Linux with a Wayland display', 'linux', { WAYLAND_DISPLAY: 'wayland-0' }, true],
    ['Linux with an empty DISPLAY', 'linux', { DISPLAY: '' }, false],
    ['FreeBSD with an X11 display', 'freebsd', { DISPLAY: ':0' }, true],
    ['macOS', 'darwin', {}, true],
    ['Windows', 'win32', {}, true],
    ['CI, even with a display', 'linux', { CI: 'true', DISPLAY: ':99' }, false],
    ['CI on macOS', 'darwin', { CI: '1' }, false],
    ['CI=false on macOS', 'darwin', { CI: 'false' }, true],
    ['BROWSER=none on macOS', 'darwin', { BROWSER: 'none' }, false],
  ] as const)('%s', (_, platform, env, expected) => {
    expect(hasDesktop({ platform, env })).toBe(expected)
  })
})
