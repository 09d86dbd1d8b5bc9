// How the script tag's QR file hands its encoder to the UI file: the UI puts a callback under a
// well-known symbol and adds the file's <script>; the file calls it with the encoder.
export const QR_READY = Symbol.for('referral-widget.qr-ready')

/** The QR file's name, beside the script tag's other files. */
export const QR_FILE = 'referral-widget-qr.js'
