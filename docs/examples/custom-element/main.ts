import 'referral-widget/custom-element' // in your bundle: defines <referral-widget>
