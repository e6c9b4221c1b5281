import type { MockUpstream } from '@switchyard/mock-upstream';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.ts';

/** Tag of the demo channel: how a later `--demo` start finds the channel it created before. */
export const DEMO_CHANNEL_TAG = 'switchyard-demo';
export const DEMO_CHANNEL_NAME = '演示渠道 Demo (offline mock upstream, not a real AI)';
/** Models the demo channel offers: priced by the default ratio tables, answered by the mock. */
export const DEMO_MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'claude-3-5-sonnet-20241022',
  'gemini-2.0-flash',
  'deepseek-reasoner',
  'text-embedding-3-small',
];

/** The mocks each app started (one close, `demo-upstream`, stops them all with the app). */
const mocksOf = new WeakMap<AppServices, MockUpstream[]>();

/** `npm start -- --demo` or SWITCHYARD_DEMO=true. */
export function isDemoRequested(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--demo') || env.SWITCHYARD_DEMO === 'true' || env.SWITCHYARD_DEMO === '1';
}

/**
 * Offline demo: starts the project's mock upstream inside this process (loopback, a free port)
 * and points a clearly labelled channel at it, creating the channel on the first demo start and
 * updating its address on later ones. Everything else is the real gateway: tokens, billing, logs.
 * Returns the mock's URL; the mock stops when the app closes (a second start in the same app, as
 * the tests make, keeps both until then).
 */
export async function startDemo(app: FastifyInstance): Promise<{ url: string; channelId: number }> {
  const { startMockUpstream } = await import('@switchyard/mock-upstream');
  const mock = await startMockUpstream({ recordLimit: 0 });
  let mocks = mocksOf.get(app.services);
  if (!mocks) {
    const started: MockUpstream[] = [];
    app.services.lifecycle.register('demo-upstream', {
      close: async () => {
        await Promise.all(started.map((each) => each.close()));
      },
    });
    mocksOf.set(app.services, started);
    mocks = started;
  }
  mocks.push(mock);
  const { channels, database, bus } = app.services;
  const existing = await database.db
    .selectFrom('channels')
    .select('id')
    .where('tag', '=', DEMO_CHANNEL_TAG)
    .orderBy('id')
    .executeTakeFirst();
  let channelId: number;
  if (existing) {
    channelId = existing.id;
    await channels.update(channelId, { base_url: mock.url });
  } else {
    [channelId] = (await channels.createMany([
      {
        type: 1,
        name: DEMO_CHANNEL_NAME,
        key: 'sk-switchyard-demo',
        base_url: mock.url,
        models: DEMO_MODELS.join(','),
        group: 'default',
        tag: DEMO_CHANNEL_TAG,
        status: 1,
        priority: 0,
        weight: 0,
      },
    ])) as [number];
  }
  bus.publish('channels', String(channelId));
  await app.services.relay.channelIndex.rebuild();
  return { url: mock.url, channelId };
}
