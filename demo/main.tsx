// The QA demo page (`npm start`): see demo/workbench/.
import { render } from 'preact'
import { App } from './workbench/App.tsx'

const root = document.getElementById('app')
if (root) {
  root.textContent = ''
  render(<App />, root)
}
