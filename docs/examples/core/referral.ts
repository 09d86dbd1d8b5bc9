import { createReferral } from 'referral-widget/core' // no UI, no framework

const referral = createReferral({ publicKey: 'pk_test_acme', apiBase: 'https://YOUR-SERVICE' })
referral.identify('user_123')
referral.$link.subscribe((link) => {
  const output = document.querySelector('#referral-link')
  if (output) output.textContent = link.status === 'ready' ? link.link.url : ''
})
