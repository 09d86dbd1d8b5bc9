// axe-core run in a real page (open shadow roots included): every violation, or those of the
// WCAG 2.2 AA rules alone.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

const AXE = readFileSync(
  join(import.meta.dirname, '../../../node_modules/axe-core/axe.min.js'),
  'utf8',
)

/** axe's tags for WCAG 2.2 level A and AA, every version's. */
export const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export interface Finding {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

/** Runs axe on the whole document; `tags` limits it to those rules. Returns every violation. */
export async function axe(page: Page, tags?: string[]): Promise<Finding[]> {
  await page.addScriptTag({ content: AXE })
  return page.evaluate(async (only) => {
    interface AxeResults {
      violations: Array<{
        id: string
        impact?: string | null
        help: string
        nodes: Array<{ target: unknown[] }>
      }>
    }
    const runner = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }
    ).axe
    const results = await runner.run(
      document,
      only ? { runOnly: { type: 'tag', values: only } } : {},
    )
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }))
  }, tags)
}
