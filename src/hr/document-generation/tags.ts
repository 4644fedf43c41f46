/** The OpenAPI tags of document generation's operations. */
export const TAG_TEMPLATES = ['Document generation templates'];
export const TAG_GENERATIONS = ['Document generations'];
export const TAG_CAMPAIGNS = ['Document generation campaigns'];
export const TAG_MIGRATION = ['Document generation syntax migration'];
