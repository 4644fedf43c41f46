/**
 * The rendition cache (migration 0030_renditions; docs/hr-api.md, "Previews"): a PNG of one page of a stored file,
 * keyed by the file's checksum, the page, the width and the share of the page's height. Not a tenant's data: like
 * the blobs it is keyed by, one rendition serves every document with the same bytes.
 */
export interface RenditionsTable {
  source_sha256: string;
  page: number;
  width: number;
  /** The share of the page's height rendered, in ten-thousandths (10000: the whole page). */
  crop: number;
  /** The PNG's blob. */
  sha256: string;
  size: number;
  created_at: number;
}

/** A stored file's page count as the renderer reads it; 0: the renderer cannot read it. */
export interface RenditionPagesTable {
  source_sha256: string;
  pages: number;
  created_at: number;
}

declare module '../db/schema.js' {
  interface Tables {
    renditions: RenditionsTable;
    rendition_pages: RenditionPagesTable;
  }
}
