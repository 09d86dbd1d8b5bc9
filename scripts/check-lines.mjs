// The house rule "no module over about 300 lines", checked: every source, test, demo, script,
// style and page file git tracks. A longer file is several modules waiting to be named; split it
// by job rather than raise the limit.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const LIMIT = 300
const CODE = /\.(ts|tsx|mts|js|mjs|cjs|css|html)$/

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => CODE.test(file))

const over = []
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n').length - 1
  if (lines > LIMIT) over.push(`${file}: ${lines} lines`)
}

if (over.length > 0) {
  console.error(`Over ${LIMIT} lines (split by job):\n  ${over.join('\n  ')}`)
  process.exit(1)
}
console.log(`${files.length} files, none over ${LIMIT} lines.`)
