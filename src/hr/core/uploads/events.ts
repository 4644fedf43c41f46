import { declareEvents } from '../../audit/catalogue.js';

/** The audit events uploads record (`POST /uploads`, `POST /document`). */
export const uploadEvents = declareEvents('upload', ['created']);
