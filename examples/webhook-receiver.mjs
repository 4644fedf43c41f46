// A webhook receiver in one file, for trying Atrium's webhooks (docs/webhooks.md).
// It verifies each callback's X-Event-Signature with the webhook's signature key, then prints the event.
//
//   WEBHOOK_KEY=<signature_key> node examples/webhook-receiver.mjs   (listens on 127.0.0.1:4000, or PORT)
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const key = process.env.WEBHOOK_KEY;
if (!key) {
  console.error('Set WEBHOOK_KEY to the webhook’s signature_key.');
  process.exit(2);
}
const TOLERANCE_SECONDS = 300;
const seen = new Set();

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, fresh and equal in constant time. */
function verified(rawBody, header) {
  const { t, v1 } = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=')));
  if (!t || !v1) return false;
  const expected = createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= TOLERANCE_SECONDS;
  return fresh && v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!verified(body, req.headers['x-event-signature'])) {
        console.log('refused: bad or stale signature');
        return res.writeHead(400).end('bad signature');
      }
      const id = req.headers['x-event-id'];
      // Delivery is at least once: the same X-Event-Id can come twice after a crash or a redelivery.
      if (seen.has(id)) return res.writeHead(200).end('duplicate');
      seen.add(id);
      const event = JSON.parse(body);
      console.log(`verified ${event.type} by ${event.actor.type} ${event.actor.name}: ${event.name ?? ''}`);
      console.log(JSON.stringify(event.data, null, 2));
      res.writeHead(204).end();
    });
  })
  .listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () =>
    console.log(`listening on http://127.0.0.1:${process.env.PORT ?? 4000}/`),
  );
