/** Request forms (`/request_forms`). */
import type {
  RequestForm,
  RequestFormCountQuery,
  RequestFormGetQuery,
  RequestFormListQuery,
  RequestFormPatch,
  RequestFormPut,
} from '../schemas/hr/people-assist/request-forms.js';
import type { Verbs } from './core.js';

/** `hr.requestForms`. */
export function requestForms(v: Verbs) {
  const path = '/request_forms';
  return {
    list: v.list<RequestForm, RequestFormListQuery>(path),
    count: v.count<RequestFormCountQuery>(path),
    retrieve: v.retrieve<RequestForm, RequestFormGetQuery>(path),
    upsert: v.upsert<RequestFormPut, RequestForm, RequestFormGetQuery>(path),
    update: v.update<RequestFormPatch, RequestForm>(path),
  };
}
