/**
 * Webhooks (`/webhooks`): CRUD, key rotation, test callbacks, and the Atrium extensions that list a webhook's
 * delivery attempts and redeliver one. Verifying a callback is `verifyWebhookSignature` (../webhooks.ts).
 */
import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  Webhook,
  WebhookAttempt,
  WebhookAttemptListQuery,
  WebhookCreate,
  WebhookListQuery,
} from '../schemas/hr/integrations/webhooks.js';
import { enc, type HrCore, type Id, type ListParams, type UpdateMethod, type Verbs } from './core.js';

/** `hr.webhooks`. */
export function webhooks(core: HrCore, v: Verbs) {
  const path = '/webhooks';
  const of = (id: Id) => `${path}/${enc(id)}`;
  return {
    /** Lists webhooks in creation order (cursor pages), each with its `signature_key`. */
    list: v.list<Webhook, WebhookListQuery>(path),
    /** Creates a webhook; the server generates its `signature_key`. */
    create: v.create<WebhookCreate, Webhook>(path),
    /** Gets a webhook. */
    retrieve: v.retrieve<Webhook>(path),
    /**
     * `PUT /webhooks/{id}`: replaces the name, URL, subscriptions and state (every attribute is required; not a
     * PATCH). It never creates a webhook (404).
     */
    update: ((id, body, options) => core.json<Webhook>('PUT', of(id), { body }, options)) as UpdateMethod<
      WebhookCreate,
      Webhook
    >,
    /** Deletes a webhook and its pending deliveries; resolves on 204. */
    del: v.del(path),
    /** Rotates the signature key: callbacks queued from now on are signed with the new key (in the answer). */
    refreshSignatureKey: (id: Id, options?: RequestOptions): Promise<Webhook> =>
      core.json<Webhook>('POST', `${of(id)}/refresh_signature_key`, {}, options),
    /** Queues a `webhook.test` callback to the webhook (active or not); resolves on 204. */
    test: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('POST', `${of(id)}/tests`, {}, options);
    },
    /** A webhook's deliveries (Atrium extension). */
    deliveries: {
      /** Its delivery attempts, newest first (cursor pages). */
      list: (
        id: Id,
        params?: ListParams<WebhookAttemptListQuery>,
        options?: RequestOptions,
      ): AutoPager<WebhookAttempt> =>
        core.pager<WebhookAttempt>(`${of(id)}/deliveries`, params as Record<string, unknown>, options),
      /**
       * Queues a delivery's event again (same body and `X-Event-Id`, signed anew); resolves on 202. `deliveryId`
       * is an attempt's `delivery_id`.
       */
      redeliver: async (id: Id, deliveryId: Id, options?: RequestOptions): Promise<void> => {
        await core.call('POST', `${of(id)}/deliveries/${enc(deliveryId)}/redeliver`, {}, options);
      },
    },
  };
}
