Referral('identify', 'user_123') // the signed-in user: their link appears
Referral('track', 'signup', { userId: 'user_456' }) // on your sign-up success page
Referral.on('event:sent', ({ event }) => console.log('recorded', event.type))
