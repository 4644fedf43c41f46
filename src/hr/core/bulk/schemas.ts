import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ITEMS_CHECKED_LATER } from '../../../platform/http/validation.js';
import { ErrorBody } from '../../errors.js';

/** Items a bulk call may hold (the reference names no limit; docs/hr-api.md, "Bulk calls"). */
export const MAX_BULK_ITEMS = 1000;

/**
 * The body of a bulk call: an array of the single endpoint's items. The route checks the array (1 to 1000 items);
 * each item is checked against `item` when the call's job reaches it, so one bad item fails only itself.
 */
export function bulkBody<T extends TSchema>(item: T, description: string) {
  return Type.Array(item, {
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
    description: `${description} Each item is checked when it is applied: one bad item fails only itself.`,
    [ITEMS_CHECKED_LATER]: true,
  });
}

/** What a bulk call answers at once. */
export const BulkOperationResult = Type.Object(
  { request_id: Type.String({ format: 'uuid', description: 'Poll `GET …/bulk/{request_id}` with it.' }) },
  { $id: 'BulkOperationResult', title: 'BulkOperationResult' },
);
export type BulkOperationResult = Static<typeof BulkOperationResult>;

export const BulkParams = Type.Object({ request_id: Type.String({ format: 'uuid' }) });

/** A bulk call's status, with `Result` (capital R, as in the reference) the resource as its GET presents it. */
export function bulkStatus<T extends TSchema>(result: T, id: string) {
  return Type.Object(
    {
      summary: Type.Object({
        total: Type.Integer({ description: 'Items in the call.' }),
        processed: Type.Integer({ description: 'Items applied or refused so far.' }),
        success: Type.Integer(),
        failed: Type.Integer(),
        status: Type.Union([Type.Literal('queued'), Type.Literal('in_progress'), Type.Literal('completed')], {
          description: '`queued` until its job starts, `in_progress`, then `completed` once every item is settled.',
        }),
      }),
      results: Type.Array(
        Type.Object({
          index: Type.Integer({ description: "The item's zero-based position in the call's array." }),
          status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
          outcome: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('failed')], {
            description: 'Atrium: what the item did.',
          }),
          message: Type.String(),
          Result: Type.Optional(result),
          error: Type.Optional(
            Type.Ref(ErrorBody, {
              description: 'Atrium: the error body the single endpoint would have answered for this item.',
            }),
          ),
        }),
        { description: 'The items settled so far, in the order of the call.' },
      ),
    },
    { $id: id, title: id },
  );
}
