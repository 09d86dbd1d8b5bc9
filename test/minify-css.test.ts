// The script tag's stylesheet is minified at build time: it must declare exactly the same rules.
import { describe, expect, it } from 'vitest'
import { minifyCss } from '../scripts/minify-css.ts'
import { css } from '../src/ui/styles.ts'

/** Rules as selector → declarations, white space and the last semicolon aside. */
function rules(text: string): string[] {
  const flat = text.replace(/\/\*[\s\S]*?\*\//g, '')
  return [...flat.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => {
    const declarations = (body ?? '')
      .split(';')
      .map((declaration) =>
        declaration
          .trim()
          .replace(/\s*:\s*/, ':')
          .replace(/\s*,\s*/g, ',')
          .replace(/\s+/g, ' '),
      )
      .filter(Boolean)
    return `${(selector ?? '')
      .trim()
      .replace(/\s*,\s*/g, ',')
      .replace(/\s*>\s*/g, '>')
      .replace(/\s+/g, ' ')}{${declarations.join(';')}}`
  })
}

describe('minifyCss', () => {
  it('keeps every rule and declaration of the widget’s stylesheet', () => {
    const minified = minifyCss(css)
    expect(minified.length).toBeLessThan(css.length * 0.9)
    expect(rules(minified)).toEqual(rules(css))
  })

  it('keeps the spaces that mean something', () => {
    // Descendant combinators, value separators and calc()'s operators keep their spaces; a
    // space before a colon might be a descendant pseudo-class (`.a :hover`), so it stays too.
    expect(minifyCss('.a  .b :hover { margin: 0 auto ; width: calc(1px + 2px) }')).toBe(
      '.a .b :hover{margin:0 auto;width:calc(1px + 2px)}',
    )
  })
})
