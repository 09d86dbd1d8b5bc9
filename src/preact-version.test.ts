// @vitest-environment happy-dom
// The component tests run once per supported Preact major (vitest.config.ts): this checks that
// each run renders with the Preact it names, the testing library's included.
import { render as libraryRender } from '@testing-library/preact'
import { h } from 'preact'
import { useState } from 'preact/hooks'
import preactPackage from 'preact/package.json' with { type: 'json' }
import { renderToString } from 'preact-render-to-string'
import { expect, it } from 'vitest'

it('renders with the Preact major this project names', () => {
  const major = process.env.PREACT_MAJOR
  expect(major).toMatch(/^1[01]$/)
  expect(preactPackage.version.split('.')[0]).toBe(major)
})

it('the testing library and the string renderer use that same copy', () => {
  // Hooks live in one copy's internals: rendered by another copy, a component using them throws.
  function Counter() {
    const [count] = useState(7)
    return h('output', null, count)
  }
  expect(libraryRender(h(Counter, null)).container.innerHTML).toBe('<output>7</output>')
  expect(renderToString(h(Counter, null))).toBe('<output>7</output>')
})
