import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`fastify listening on ${url}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
