// @vitest-environment happy-dom
// The page watch's judge (page-watch.ts): a batch of changes adds a panel or banner when one of
// the nodes it added is one, or holds one (a swapped-in subtree). Text changing, and the page's
// own elements coming and going, add none, and judging them costs no query of the document.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAGE_CHANGES } from '../shared/page-changes.ts'
import { addsWidget } from './page-watch.ts'

/** The verdict on each batch of changes, in order. */
let verdicts: boolean[] = []
let observer: MutationObserver | undefined
const watch = () => {
  observer = new MutationObserver((batch) => verdicts.push(addsWidget(batch)))
  observer.observe(document, PAGE_CHANGES)
}
/** Lets the observer's microtask run. */
const batch = () => new Promise((resolve) => setTimeout(resolve, 0))

afterEach(() => {
  observer?.disconnect()
  verdicts = []
  document.body.replaceChildren()
  vi.restoreAllMocks()
})

/** A chain of nested elements, each [tag, attribute?], the first holding the next. */
const nested = (chain: Array<[string, string?]>) => {
  const root = document.createElement('section')
  let parent: Element = root
  for (const [tag, attribute] of chain) {
    const child = document.createElement(tag)
    if (attribute) child.setAttribute(attribute, '')
    parent.append(child)
    parent = child
  }
  return root
}

describe('addsWidget', () => {
  it('a panel or banner added is one, also deep inside what was swapped in', async () => {
    watch()
    document.body.append(nested([['div', 'data-referral-widget']]))
    await batch()
    document.body.append(nested([['main'], ['article'], ['div', 'data-referral-banner']]))
    await batch()
    const marked = document.createElement('div')
    marked.setAttribute('data-referral-widget', '')
    document.body.append(marked)
    await batch()
    expect(verdicts).toEqual([true, true, true])
  })

  it('text that changes, the page’s own elements coming, and removals are not', async () => {
    const ticker = document.createElement('p')
    ticker.textContent = 'tick'
    const panel = nested([['div', 'data-referral-widget']])
    document.body.append(ticker, panel)
    watch()
    for (let n = 0; n < 16; n++) {
      ticker.textContent = `tick ${n}`
      await batch()
    }
    document.body.append(nested([['table'], ['tr'], ['td']]))
    await batch()
    panel.remove()
    await batch()
    expect(verdicts).toEqual(Array.from({ length: 18 }, () => false))
  })

  it('never queries the whole document, however busy the page', async () => {
    const querySelector = vi.spyOn(document, 'querySelector')
    const querySelectorAll = vi.spyOn(document, 'querySelectorAll')
    const rows = document.createElement('tbody')
    document.body.append(rows)
    watch()
    for (let frame = 0; frame < 5; frame++) {
      rows.replaceChildren(...Array.from({ length: 200 }, () => nested([['tr'], ['td']])))
      await batch()
    }
    expect(querySelector).not.toHaveBeenCalled()
    expect(querySelectorAll).not.toHaveBeenCalled()
    expect(verdicts).toEqual([false, false, false, false, false])
  })
})
