/**
 * The Academy events API through the SDK: create events, page through them, make a bundle of offers.
 *
 *   npm run build && node examples/academy.mjs
 */
import { AcademyClient, AcademyNotFoundError } from '@atrium/client';
import { startAtrium } from './server.mjs';

const server = await startAtrium();
try {
  const { acadId, apikey } = server.atrium('academy', 'create', '--name', 'Demo academy');
  // The key travels in the X-API-Key header, never in the URL. This client also works in a browser.
  const academy = new AcademyClient({ baseUrl: server.baseUrl, acadId, apiKey: apikey });

  const at = (hours) => ({ hours, minutes: 0, meridian: 'AM' });
  for (let week = 1; week <= 5; week++) {
    await academy.events.vc.create({
      title: `Onboarding live session ${week}`,
      description: 'Welcome to the team',
      timeOffset: 2,
      registrationDeadline: 24,
      based: 2,
      sessions: [{ topic: 'Welcome', date: `06/${String(week * 5).padStart(2, '0')}/2031`, from: at(9), to: at(11) }],
    });
  }

  // Two events per page: the SDK moves `start` until it has them all.
  const titles = [];
  for await (const event of academy.events.vc.list({ limit: 2 })) titles.push(event.title);
  console.log(`${titles.length} events:`, titles.join(' | '));

  const [first] = await academy.events.vc.list({ limit: 1 }).toArray(1);
  const bundle = await academy.events.vc.convertToBundle(first.id, {
    canMulti: 'no',
    customOffers: [{ date: '07/06/2031' }, { date: '07/13/2031' }],
  });
  console.log('offers added:', bundle.addedOffers.join(', '));
  const offers = await academy.events.vc.offers(first.id).toArray();
  console.log(`bundle of ${offers.length} events`);

  await academy.events.vc.del(first.id);
  try {
    await academy.events.vc.retrieve(first.id);
  } catch (error) {
    if (!(error instanceof AcademyNotFoundError)) throw error;
    console.log(`deleted: ${error.status} ${error.code}`);
  }
  console.log('done');
} finally {
  await server.stop();
}
