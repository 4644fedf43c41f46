import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type ImageHeader, readImageHeader } from './image-header.js';

/** How a page is rendered: which page (1-based), how wide (pixels), and which share of its height (0..1]. */
export interface RenderOptions {
  page: number;
  width: number;
  /** The share of the page's height rendered, from its top (the reference's `crop_rate`). */
  crop: number;
}

/** What a render gives: the PNG and the source's page count, or why there is none. */
export type RenderResult =
  | { ok: true; png: Uint8Array; pages: number; width: number; height: number }
  | { ok: false; reason: 'page'; pages: number }
  | { ok: false; reason: 'unreadable' };

/** The kinds of file a rendition is made of. */
export type RenderKind = 'pdf' | 'image';

/** A page is never rendered taller than this many times its width (a strip-shaped page is shrunk to fit). */
const MAX_ASPECT = 3;
/** The largest image decoded (pixels, width × height): a small file declaring a huge picture is unreadable. */
export const MAX_IMAGE_PIXELS = 40_000_000;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Canvas = typeof import('@napi-rs/canvas');
let libraries: Promise<{ pdfjs: PdfJs; canvas: Canvas; assets: string }> | undefined;

/** Loads pdf.js and the canvas now (a worker that renders does so as it starts). */
export async function loadRenderer(): Promise<void> {
  await load();
}

/** pdf.js and the canvas, loaded by the first render only (a worker that only counts pages never loads them). */
function load() {
  libraries ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const canvas = await import('@napi-rs/canvas');
    const assets = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { pdfjs, canvas, assets };
  })();
  libraries.catch(() => {
    libraries = undefined; // tried again by the next task
  });
  return libraries;
}

/** The size of the picture for a page of `width` × `height` (any unit) made `targetWidth` pixels wide. */
function fit(width: number, height: number, targetWidth: number, crop: number) {
  const scale = Math.min(targetWidth / width, (targetWidth * MAX_ASPECT) / height);
  return {
    scale,
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale * crop)),
  };
}

/**
 * Renders one page of a PDF (pdf.js, drawing on @napi-rs/canvas) or an image (JPEG or PNG, decoded by the canvas)
 * to a PNG. It runs in the PDF worker thread (runner.ts), which bounds its time and heap; here the rest is bounded:
 * pdf.js decodes no image above `MAX_IMAGE_PIXELS`, evaluates no JavaScript and loads no font from the system,
 * and an image file declaring more pixels than that is unreadable before it is decoded (its header is read first).
 *
 * What cannot be read is `unreadable`; a page past the end is `page`, with the count. Rejects only when the
 * renderer itself cannot be loaded.
 */
export async function renderPage(bytes: Uint8Array, kind: RenderKind, options: RenderOptions): Promise<RenderResult> {
  await load(); // rejects when the renderer cannot load: not the file's fault, so never `unreadable`
  try {
    return kind === 'pdf' ? await renderPdf(bytes, options) : await renderImage(bytes, options);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/** The page count of a PDF as pdf.js reads it (an image has one page), or null when unreadable (rejects as above). */
export async function countRenderable(bytes: Uint8Array, kind: RenderKind): Promise<number | null> {
  await load();
  try {
    if (kind === 'image') return imageHeader(bytes) ? 1 : null;
    const doc = await openPdf(bytes);
    try {
      return doc.numPages;
    } finally {
      await doc.destroy();
    }
  } catch {
    return null;
  }
}

export async function openPdf(bytes: Uint8Array) {
  const { pdfjs, assets } = await load();
  return pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    standardFontDataUrl: `${join(assets, 'standard_fonts')}/`,
    cMapUrl: `${join(assets, 'cmaps')}/`,
    cMapPacked: true,
    wasmUrl: `${join(assets, 'wasm')}/`,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    stopAtErrors: false,
  }).promise;
}

async function renderPdf(bytes: Uint8Array, options: RenderOptions): Promise<RenderResult> {
  const { canvas: lib } = await load();
  const doc = await openPdf(bytes);
  try {
    const pages = doc.numPages;
    if (options.page > pages) return { ok: false, reason: 'page', pages };
    const page = await doc.getPage(options.page);
    const base = page.getViewport({ scale: 1 });
    const size = fit(base.width, base.height, options.width, options.crop);
    const viewport = page.getViewport({ scale: size.scale });
    const canvas = lib.createCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const png = await canvas.encode('png');
    return { ok: true, png: new Uint8Array(png), pages, width: size.width, height: size.height };
  } finally {
    await doc.destroy();
  }
}

function imageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const header = readImageHeader(bytes);
  return header && header.width * header.height <= MAX_IMAGE_PIXELS ? header : undefined;
}

async function renderImage(bytes: Uint8Array, options: RenderOptions): Promise<RenderResult> {
  const header = imageHeader(bytes);
  if (!header) return { ok: false, reason: 'unreadable' };
  if (options.page > 1) return { ok: false, reason: 'page', pages: 1 };
  const { canvas: lib } = await load();
  // Decoded before it is drawn (setting an Image's `src` decodes it later).
  const image = await lib.loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (image.width === 0 || image.height === 0) return { ok: false, reason: 'unreadable' };
  // An image is never made larger than it is.
  const size = fit(image.width, image.height, Math.min(options.width, image.width), options.crop);
  const canvas = lib.createCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(image, 0, 0, Math.round(image.width * size.scale), Math.round(image.height * size.scale));
  const png = await canvas.encode('png');
  return { ok: true, png: new Uint8Array(png), pages: 1, width: size.width, height: size.height };
}
