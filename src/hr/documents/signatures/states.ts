/** Reference §4.2: DELETE only in these states, otherwise 400. */
export const DELETABLE_STATES: readonly string[] = ['draft', 'rejected', 'canceled', 'expired', 'sent', 'done'];
/** Setting `canceled` cancels a process in these states (reference §5.4). */
export const CANCELABLE_STATES: readonly string[] = ['draft', 'signing', 'signed'];
