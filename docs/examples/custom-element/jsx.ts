import 'referral-widget/custom-element/react' // React: declares it in React's JSX
import 'referral-widget/custom-element/preact' // Preact: declares it in Preact's JSX
