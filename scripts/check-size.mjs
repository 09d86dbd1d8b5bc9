// CI's size report, printed after size-limit (.size-limit.js) has enforced the limits: each
// page's gzip bytes beside its budget (issue 30's) and the ceiling that holds until the
// budget is met, so every run shows the distance left.
import { BUDGETS, CEILINGS, PAGES, sizes } from './sizes.mjs'

const { totals } = sizes()
for (const [page, { label }] of Object.entries(PAGES)) {
  const gzip = totals[page].gzip
  const budget = BUDGETS[page]
  const verdict =
    gzip <= budget
      ? 'within budget'
      : `over budget by ${gzip - budget} B (CI holds it under ${CEILINGS[page]} B meanwhile)`
  console.log(
    `${label.padEnd(42)} ${String(gzip).padStart(6)} B gzip · budget ${budget} B · ${verdict}`,
  )
}
