import type { BulkReport } from './service.js';

/** A bulk call's status (`GET …/bulk/{request_id}`): the counts, and each settled item with its result or error. */
export function presentBulkStatus(report: BulkReport) {
  const { operation, items } = report;
  const success = items.filter((i) => i.status === 'success').length;
  return {
    summary: {
      total: operation.total,
      processed: items.length,
      success,
      failed: items.length - success,
      status: operation.status,
    },
    results: items.map((i) =>
      i.status === 'success'
        ? { index: i.index, status: i.status, outcome: i.outcome, message: i.message, Result: i.result }
        : { index: i.index, status: i.status, outcome: i.outcome, message: i.message, error: i.result },
    ),
  };
}
