/** The response schema of an answer without a body (a 204): one for every route that has one. */
export const NoBody = { type: 'null', description: 'No body.' } as const;
