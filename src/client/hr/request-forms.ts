/** Request forms (`/request_forms`). */
import type { Static } from '@sinclair/typebox';
import type {
  RequestForm,
  RequestFormCountQuery,
  RequestFormGetQuery,
  RequestFormListQuery,
  RequestFormPatch,
  RequestFormPut,
} from '../../hr/people-assist/request-forms/schemas.js';
import type { Verbs } from './core.js';

/** `hr.requestForms`. */
export function requestForms(v: Verbs) {
  const path = '/request_forms';
  return {
    list: v.list<RequestForm, RequestFormListQuery>(path),
    count: v.count<RequestFormCountQuery>(path),
    retrieve: v.retrieve<RequestForm, Static<typeof RequestFormGetQuery>>(path),
    upsert: v.upsert<RequestFormPut, RequestForm, Static<typeof RequestFormGetQuery>>(path),
    update: v.update<RequestFormPatch, RequestForm>(path),
  };
}
