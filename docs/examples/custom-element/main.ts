import 'referral-widget/custom-element' // defines <referral-widget>
