// @vitest-environment happy-dom
// The referrer's panel's copy button (WIDGET.md section 3): the share URL copied through the
// clipboard API or the selection, and what the visitor is told when it works or fails. The panel
// runs against the in-process reference service (test/support/harness.ts) with fake time.
import { describe, expect, it, vi } from 'vitest'
import { settle } from '../../test/support/dom.ts'
import {
  copyButton,
  EN,
  mountPanelHost as mount,
  open,
  readyPanel,
  teardown,
  text,
  useUiWorld,
} from '../../test/support/ui-world.ts'

useUiWorld()

// --- copy ------------------------------------------------------------------------------------

describe('copy', () => {
  function stubExecCommand(result: boolean | Error) {
    const execCommand = vi.fn((_command: string) => {
      if (result instanceof Error) throw result
      return result
    })
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
    teardown.push(() => {
      Reflect.deleteProperty(document, 'execCommand')
    })
    return execCommand
  }

  it('copies the share URL and says so', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host, link } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(writeText).toHaveBeenCalledTimes(1)
    expect(writeText).toHaveBeenCalledWith(link.url)
    expect(text(host, 'status')).toBe('Link copied')
  })

  it('says so in the locale', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { host } = await readyPanel({ locale: 'fr' })
    copyButton(host).click()
    await settle()
    expect(text(host, 'status')).toBe('Lien copié')
  })

  it('falls back to selecting the input when the clipboard API refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    const execCommand = stubExecCommand(true)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(execCommand).toHaveBeenCalledWith('copy')
    expect(text(host, 'status')).toBe('Link copied')
  })

  it.each([
    ['execCommand answers false', false],
    ['execCommand throws', new Error('not supported')],
  ])('tells the visitor when copying fails (%s)', async (_, result) => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('NotAllowedError'))
    stubExecCommand(result)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()

    expect(text(host, 'status')).toBe('Could not copy: select the link and copy it yourself')
  })

  it('a copy failure never claims success later on', async () => {
    const writeText = vi
      .spyOn(navigator.clipboard, 'writeText')
      .mockRejectedValueOnce(new Error('NotAllowedError'))
      .mockResolvedValueOnce(undefined)
    stubExecCommand(false)
    const { host } = await readyPanel()

    copyButton(host).click()
    await settle()
    expect(text(host, 'status')).toBe(EN.copyFailed)

    copyButton(host).click()
    await settle()
    expect(writeText).toHaveBeenCalledTimes(2)
    expect(text(host, 'status')).toBe(EN.copied)
  })

  it('a disabled copy button does nothing while the link loads', () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const host = mount(open({ userId: 'alice' }))
    copyButton(host).click()
    expect(writeText).not.toHaveBeenCalled()
    expect(text(host, 'status')).toBe('')
  })
})
