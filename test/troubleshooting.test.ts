// docs/TROUBLESHOOTING.md has a section for every code debug mode can print, and none for a code
// it never prints: the explanations (src/core/debug/explain.ts) and the page are held together.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { EXPLANATIONS, explain, sectionOf } from '../src/core/debug/explain.ts'

const page = readFileSync(new URL('../docs/TROUBLESHOOTING.md', import.meta.url), 'utf8')
const sections = [...page.matchAll(/^### (\S+)$/gm)].map((match) => match[1])

describe('docs/TROUBLESHOOTING.md', () => {
  it('has a section for every code the widget can print', () => {
    const missing = Object.keys(EXPLANATIONS).filter((code) => !sections.includes(code))
    expect(missing).toEqual([])
  })

  it('names no code the widget never prints', () => {
    const unknown = sections.filter((code) => !Object.hasOwn(EXPLANATIONS, code ?? ''))
    expect(unknown).toEqual([])
  })

  it('each line points at its own section, and a code of the service without one at the shared one', () => {
    const line = explain({ code: 'campaign_not_active', at: 0, type: 'signup', id: 'e_1' })
    expect(line).toMatch(
      /^\[referral\] campaign_not_active: .+ docs\/TROUBLESHOOTING\.md#campaign_not_active$/,
    )
    expect(sectionOf('parameter_invalid')).toBe('other_service_code')
    expect(explain({ code: 'parameter_invalid', at: 0, why: 'userId is too long' })).toContain(
      'parameter_invalid: userId is too long',
    )
  })
})
